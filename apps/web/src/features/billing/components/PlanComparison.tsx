import Check from '@mui/icons-material/Check';
import Remove from '@mui/icons-material/Remove';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Plan } from '@parley/contracts';
import { comparisonRows } from '../model';
import { Section } from './Section';

/** Every limit and feature, one row each, a column per plan: features as check marks. */
export function PlanComparison({ plans }: { plans: Plan[] }) {
  const rows = comparisonRows(plans);
  return (
    <Section title="Compare plans">
      <TableContainer>
        <Table size="small" aria-label="Compare plans">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Feature
              </TableCell>
              {plans.map((plan) => (
                <TableCell key={plan.id} component="th" scope="col" align="center">
                  {plan.name}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell component="th" scope="row">
                  {row.label}
                </TableCell>
                {row.kind === 'limit'
                  ? row.values.map((value, i) => (
                      <TableCell key={plans[i]!.id} align="center">
                        {value}
                      </TableCell>
                    ))
                  : row.values.map((included, i) => (
                      <TableCell key={plans[i]!.id} align="center">
                        {included ? (
                          <Check color="success" fontSize="small" titleAccess="Included" />
                        ) : (
                          <Remove color="disabled" fontSize="small" titleAccess="Not included" />
                        )}
                      </TableCell>
                    ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Section>
  );
}
