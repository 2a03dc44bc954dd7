/**
 * Every style of the widget, applied inside its shadow root: the site's CSS cannot reach in and
 * these rules cannot leak out. `:host { all: initial }` stops inherited fonts and colours.
 */
export const STYLES = `
:host{all:initial}
*,*::before,*::after{box-sizing:border-box}
.root{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;-webkit-font-smoothing:antialiased;overflow-wrap:anywhere}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
button{font:inherit}
.launcher{position:fixed;right:calc(20px + env(safe-area-inset-right,0px));bottom:calc(20px + env(safe-area-inset-bottom,0px));width:56px;height:56px;border-radius:50%;border:1px solid rgba(0,0,0,.12);padding:0;background:var(--brand);color:var(--on-brand);cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;z-index:2147483000;transition:transform .15s}
.launcher:hover{transform:scale(1.05)}
.badge{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;border-radius:10px;background:#dc2626;color:#fff;font-size:12px;font-weight:700;line-height:20px;text-align:center;box-shadow:0 0 0 2px #fff}
.launcher:focus-visible,.icon-btn:focus-visible,.chip:focus-visible,.btn:focus-visible,.send:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.panel{position:fixed;right:calc(20px + env(safe-area-inset-right,0px));bottom:calc(88px + env(safe-area-inset-bottom,0px));width:380px;height:600px;max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);max-height:calc(100dvh - 108px);display:flex;flex-direction:column;background:#fff;border:1px solid rgba(0,0,0,.08);border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.25);overflow:hidden;z-index:2147483000;outline:0}
.panel[hidden]{display:none}
@media (max-width:480px){.panel{top:var(--pw-top,0);right:0;bottom:auto;width:100vw;height:var(--pw-height,100%);max-width:none;max-height:none;border-radius:0;padding:0 env(safe-area-inset-right,0px) env(safe-area-inset-bottom,0px) env(safe-area-inset-left,0px)}.panel .header{padding-top:calc(12px + env(safe-area-inset-top,0px))}.launcher.open{display:none}}
.header{display:flex;align-items:center;gap:10px;padding:12px;padding-inline:14px 10px;background:var(--brand);color:var(--on-brand);border-bottom:1px solid rgba(0,0,0,.08)}
.avatar{width:36px;height:36px;border-radius:50%;flex:none;object-fit:cover;display:flex;align-items:center;justify-content:center;font-weight:600;background:rgba(127,127,127,.25)}
.title{flex:1;min-width:0}
.name{margin:0;font-size:15px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.status{display:flex;align-items:center;gap:6px;font-size:12px}
.dot{width:8px;height:8px;border-radius:50%;background:#f59e0b;box-shadow:0 0 0 1px rgba(255,255,255,.6)}
.dot.open{background:#16a34a}.dot.away{background:#9ca3af}.dot.failed{background:#dc2626}
.icon-btn{width:32px;height:32px;flex:none;border:0;border-radius:8px;padding:0;background:transparent;color:inherit;cursor:pointer;display:flex;align-items:center;justify-content:center}
.icon-btn:hover{background:rgba(127,127,127,.2)}
.human{padding:6px 14px;font-size:12px;background:#ecfdf5;color:#065f46;border-bottom:1px solid #d1fae5}
.body{flex:1;overflow-y:auto;overscroll-behavior:contain;padding:14px;background:#f7f7f8}
.list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}
.row{display:flex;flex-direction:column;align-items:flex-start}
.row.mine{align-items:flex-end}
.row.pending .bubble{opacity:.6}
.note{margin:2px 4px 0;font-size:11px;color:#6b7280}
.stack{display:flex;flex-direction:column;gap:10px}
.bubble{max-width:85%;padding:8px 12px;border-radius:14px;border-start-start-radius:4px;background:#fff;border:1px solid #e5e7eb}
.row.mine .bubble{background:var(--brand);color:var(--on-brand);border-color:rgba(0,0,0,.1);border-radius:14px;border-start-end-radius:4px;white-space:pre-wrap}
.label{margin:0 4px 2px;font-size:11px;color:#6b7280}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}
.md p,.md ul,.md ol,.md pre,.md blockquote,.md table{margin:6px 0}
.md ul,.md ol{padding-inline-start:20px}
.md a,.sources a{color:var(--link);text-decoration:underline}
.md code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:rgba(127,127,127,.15);padding:0 3px;border-radius:4px}
.md pre{overflow-x:auto;padding:8px;background:rgba(127,127,127,.12);border-radius:6px}
.md pre code{background:none;padding:0}
.md img{max-width:100%;height:auto;border-radius:6px}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{margin:8px 0 4px;font-size:1em}
.md table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}.md th,.md td{border:1px solid #e5e7eb;padding:2px 6px}
.md blockquote{margin-inline-start:0;padding-inline-start:8px;border-inline-start:3px solid #d1d5db;color:#4b5563}
.sources{margin-top:6px;padding-top:6px;border-top:1px solid #f0f0f0;font-size:12px;color:#4b5563}
.sources-title{font-weight:600}
.sources ul,.sources ol{margin:2px 0 0;padding-inline-start:18px}
.sources .synced{color:#6b7280}
.tag{display:inline-block;margin-inline-start:4px;padding:0 6px;border:1px solid #16a34a;border-radius:999px;font-size:10px;font-weight:600;color:#15803d;vertical-align:1px}
.actions{display:flex;flex-wrap:wrap;gap:6px;margin-top:8px}
.btn{display:inline-flex;align-items:center;gap:6px;padding:7px 12px;border:0;border-radius:8px;background:var(--brand);color:var(--on-brand);font-weight:600;text-decoration:none;cursor:pointer;box-shadow:inset 0 0 0 1px rgba(0,0,0,.12)}
.btn.plain{background:transparent;color:#374151;box-shadow:inset 0 0 0 1px #d1d5db}
.btn:disabled{opacity:.6;cursor:default}
.rate{display:flex;gap:4px;margin-top:6px}
.rate-btn{border:0;background:transparent;color:#6b7280;padding:4px;border-radius:6px;cursor:pointer;display:flex}
.rate-btn:hover{background:rgba(127,127,127,.15)}
.rate-btn.down svg{transform:rotate(180deg)}
.rate-btn.on{color:var(--accent);background:rgba(127,127,127,.15)}
.rate-btn:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.rate-offer{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin-top:6px;font-size:13px;color:#4b5563}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:0;border:0;min-width:0}
.chip{padding:6px 10px;border:1px solid var(--accent);border-radius:999px;background:#fff;color:var(--accent);font-size:13px;text-align:start;cursor:pointer}
.chip:disabled{opacity:.6;cursor:default}
.card{padding:12px;background:#fff;border:1px solid #e5e7eb;border-radius:12px}
.card h3{margin:0 0 4px;font-size:14px}
.card p{margin:0 0 8px;color:#4b5563;white-space:pre-wrap}
.field{display:flex;flex-direction:column;gap:3px;margin-bottom:8px}
.field label{font-size:12px;font-weight:600;color:#374151}
.field input{padding:7px 9px;border:1px solid #d1d5db;border-radius:8px;background:#fff;color:inherit;font:inherit}
.field input[aria-invalid=true]{border-color:#dc2626}
.field-error{font-size:12px;color:#b91c1c}
.frame{padding:6px 10px;border:1px solid;border-radius:8px;font-size:13px}
.frame.error{color:#991b1b;background:#fef2f2;border-color:#fca5a5}
.frame.warning{color:#9a3412;background:#fff7ed;border-color:#fdba74}
.frame.success{color:#166534;background:#f0fdf4;border-color:#86efac}
.frame.notice{align-self:center;text-align:center;color:#374151;background:#f3f4f6;border-color:#e5e7eb}
.person{display:flex;justify-content:center;padding:6px 12px 0}
.typing{display:flex;gap:4px;padding:12px}
.typing i{width:6px;height:6px;border-radius:50%;background:#9ca3af;animation:pw-dot 1.2s infinite ease-in-out}
.typing i:nth-child(2){animation-delay:.15s}.typing i:nth-child(3){animation-delay:.3s}
@keyframes pw-dot{0%,80%,100%{opacity:.25}40%{opacity:1}}
.conn{padding:4px 14px;font-size:12px;background:#fffbeb;color:#92400e;border-top:1px solid #fde68a}
.conn.failed{background:#fef2f2;color:#991b1b;border-color:#fecaca}
.branding{display:block;padding:4px 0 6px;text-align:center;font-size:11px;color:#6b7280;background:#fff;text-decoration:none}
.composer{display:flex;align-items:flex-end;gap:8px;padding:10px;background:#fff;border-top:1px solid #e5e7eb}
.composer textarea{flex:1;field-sizing:content;min-height:38px;max-height:120px;padding:8px 10px;border:1px solid #d1d5db;border-radius:10px;resize:none;background:#fff;color:inherit;font:inherit}
.composer textarea:focus,.field input:focus{outline:2px solid var(--accent);outline-offset:-1px}
.send{width:38px;height:38px;flex:none;border:0;border-radius:10px;background:var(--brand);color:var(--on-brand);cursor:pointer;display:flex;align-items:center;justify-content:center;box-shadow:inset 0 0 0 1px rgba(0,0,0,.12)}
.send:disabled{opacity:.5;cursor:default}
@media (prefers-reduced-motion:reduce){.launcher,.typing i{transition:none;animation:none}}
`;
