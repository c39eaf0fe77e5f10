/** The HTML export's one style sheet, inline: the file stands alone, light or dark as the reader's system is. */
export const EXPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --dim: #656d76; --bg: #fff; --box: #f6f8fa; --line: #d0d7de; --add: #1a7f37; --del: #cf222e; --you: #8250df; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --dim: #8d96a0; --bg: #0d1117; --box: #161b22; --line: #30363d; --add: #3fb950; --del: #f85149; --you: #a371f7; } }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 1.5rem; color: var(--dim); }
dl.facts dd { margin: 0; color: var(--fg); overflow-wrap: anywhere; }
.who { font-weight: 600; margin: 1.25rem 0 .25rem; }
.user .who { color: var(--you); }
.assistant .who, .note .who { color: var(--dim); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.user .text { border-left: 3px solid var(--you); padding-left: .75rem; }
.tool { margin: .5rem 0; padding: .4rem .6rem; background: var(--box); border: 1px solid var(--line); border-radius: 6px; }
.outcome.ok { color: var(--add); }
.outcome.failed { color: var(--del); }
pre { margin: .4rem 0; padding: .5rem; overflow-x: auto; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font: 13px ui-monospace, monospace; }
.add { color: var(--add); } .del { color: var(--del); } .hunk { color: var(--dim); }
details > summary { cursor: pointer; color: var(--dim); }
img { max-width: 100%; border: 1px solid var(--line); }
.child { margin-top: 2rem; padding-left: 1rem; border-left: 3px solid var(--line); }
footer { margin-top: 2rem; color: var(--dim); font-size: .85rem; }
`;
