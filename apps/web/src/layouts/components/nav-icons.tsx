import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ContactMailOutlined from '@mui/icons-material/ContactMailOutlined';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import HandshakeOutlined from '@mui/icons-material/HandshakeOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import type { ReactElement } from 'react';

const ICONS: Record<string, ReactElement> = {
  '/home': <HomeOutlined />,
  '/acl': <ShieldOutlined />,
  '/bot': <SmartToyOutlined />,
  '/integrations': <ExtensionOutlined />,
  '/inbox': <SupportAgentOutlined />,
  '/leads': <ContactMailOutlined />,
  '/analytics': <InsightsOutlined />,
  '/profile': <PersonOutline />,
  '/roles': <GroupOutlined />,
  '/subscriptions': <CreditCardOutlined />,
  '/upgrade': <RocketLaunchOutlined />,
  '/api/docs': <MenuBookOutlined />,
  '/admin': <AdminPanelSettingsOutlined />,
  '/capability': <ScienceOutlined />,
  '/partner': <HandshakeOutlined />,
};

export function navIcon(path: string): ReactElement {
  return ICONS[path] ?? <HomeOutlined />;
}
