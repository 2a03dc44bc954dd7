import { useTheme } from '@mui/material/styles';
import { SparkLineChart } from '@mui/x-charts/SparkLineChart';
import { dayLabel } from '../when';

/** The leads per day as small bars in the theme's colour, oldest first, with each day's count on hover. */
export function LeadsSparkline({
  perDay,
  width,
  height,
}: {
  perDay: number[];
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const labels = perDay.map((_count, index) => dayLabel(perDay.length - 1 - index));
  return (
    <SparkLineChart
      plotType="bar"
      data={perDay}
      width={width}
      height={height}
      color={theme.palette.primary.main}
      showTooltip
      showHighlight
      xAxis={{ scaleType: 'band', data: labels }}
      // A week without leads still draws its (empty) days against a scale of 1, not 0.
      yAxis={{ min: 0, max: Math.max(1, ...perDay) }}
      valueFormatter={(value) => (value === 1 ? '1 lead' : `${value ?? 0} leads`)}
    />
  );
}
