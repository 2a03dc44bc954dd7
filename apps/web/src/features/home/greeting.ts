/** "Good morning" before noon, "Good afternoon" until six, then "Good evening". */
export function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
