type AudioContextClass = typeof AudioContext;

let context: AudioContext | null = null;

/**
 * A short two-note chime for a new message (console.md section 8 Frames in chat), made with the
 * Web Audio API so no sound file is loaded. Browsers may block audio until the page has been used
 * (autoplay policy): then the chime is skipped quietly.
 */
export function playNotificationSound(): void {
  try {
    const Ctor =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
    if (!Ctor) return;
    context ??= new Ctor();
    const ctx = context;
    if (ctx.state === 'suspended') {
      // Allowed only after a user gesture; a refusal is not an error worth showing.
      ctx.resume().then(
        () => chime(ctx),
        () => undefined,
      );
      return;
    }
    chime(ctx);
  } catch {
    // No audio on this device.
  }
}

function chime(ctx: AudioContext): void {
  if (ctx.state !== 'running') return;
  const start = ctx.currentTime;
  const gain = ctx.createGain();
  gain.connect(ctx.destination);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
  for (const [i, frequency] of [880, 1320].entries()) {
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(frequency, start + i * 0.12);
    osc.connect(gain);
    osc.start(start + i * 0.12);
    osc.stop(start + 0.35);
  }
}
