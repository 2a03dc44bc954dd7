import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import CreditCardOutlined from '@mui/icons-material/CreditCardOutlined';
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
  '/inbox': <SupportAgentOutlined />,
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
