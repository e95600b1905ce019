/**
 * The checkout pages' style sheet (served by checkout-assets.ts under a content-hashed path; the
 * pages allow `style-src 'self'` only, so no style is inline). Mobile first, one column that stays
 * a readable card on a wide screen. Colours checked for 4.5:1 on their backgrounds.
 */
export const CHECKOUT_CSS = String.raw`*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d2330;background:#eef0f3}
[hidden]{display:none!important}
.checkout{max-width:30rem;margin:0 auto;background:#fff;min-height:100vh;padding:1rem 1rem 2rem}
@media (min-width:40rem){body{padding:2.5rem 1rem}.checkout{min-height:0;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.14);padding:1.5rem 2rem 2rem}}
.merchant{display:flex;align-items:center;gap:.75rem;margin-bottom:1rem}
.logo{width:40px;height:40px;object-fit:contain;border-radius:6px}
.merchant-name{margin:0;font-weight:600;font-size:1.05rem;overflow-wrap:anywhere}
.summary{background:#f5f7fa;border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem}
.summary p{margin:0}
.label{color:#4b5563;font-size:.875rem}
.amount{font-size:1.75rem;font-weight:700;letter-spacing:-.01em}
.description{color:#374151;overflow-wrap:anywhere}
h1{font-size:1.25rem;margin:0 0 .75rem}
h2{font-size:1.05rem;margin:0 0 .5rem}
p{margin:0 0 .75rem}
.hint{color:#4b5563;font-size:.875rem}
.predicted{min-height:1.3em;margin:-.5rem 0 0;font-weight:600;color:#1d4ed8}
.method{border:1px solid #c5cad3;border-radius:8px;margin-bottom:.75rem}
.method[open]{border-color:#1d4ed8}
.method>summary{cursor:pointer;padding:.9rem 1rem;font-weight:600;list-style-position:inside}
.method>form{padding:0 1rem 1rem}
label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}
input,select{display:block;width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #6b7280;border-radius:6px;background:#fff;color:#1d2330;min-height:2.75rem}
input:user-invalid{border-color:#b42318}
.row{display:flex;gap:.5rem}
.row>div{flex:1;min-width:0}
.row label{font-size:.8rem}
.pin{margin:.75rem 0}
.pin>summary{cursor:pointer;color:#1d4ed8;font-size:.9rem;text-decoration:underline}
button,.button{display:block;width:100%;margin-top:1rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;padding:.8rem 1rem;min-height:2.75rem;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button:hover,.button:hover{background:#1e40af}
button:disabled{opacity:.7;cursor:progress}
button.secondary{background:#fff;color:#1d4ed8}
button.link{background:none;border:0;color:#1d4ed8;text-decoration:underline;font-weight:400;padding:.5rem 0;margin:1rem 0 0}
button.copy{display:inline-block;width:auto;margin:0 0 0 .5rem;padding:.2rem .6rem;min-height:2rem;font-size:.85rem;background:#fff;color:#1d4ed8}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
input:focus-visible,select:focus-visible{outline-offset:0}
.alert{border:1px solid #b42318;background:#fdf0ee;color:#7a1a10;border-radius:8px;padding:.75rem 1rem;margin-bottom:1rem}
.alert h2{color:#7a1a10}
.alert p:last-child{margin:0}
.waiting,.done{text-align:center;padding:1rem 0}
.spinner{width:48px;height:48px;margin:0 auto 1rem;border:5px solid #d6dbe3;border-top-color:#1d4ed8;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:4s}}
.tick{width:48px;height:48px;margin:0 auto 1rem;border-radius:50%;background:#1a7f37;position:relative}
.tick::after{content:"";position:absolute;left:17px;top:9px;width:12px;height:24px;border:solid #fff;border-width:0 4px 4px 0;transform:rotate(45deg)}
.retry{border-top:1px solid #d6dbe3;margin-top:1.25rem;padding-top:1rem}
.js .later{display:none}
.bank{margin:0 0 1rem}
.bank>div{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;padding:.6rem 0;border-bottom:1px solid #e3e6eb}
.bank dt{color:#4b5563;font-size:.875rem;flex-basis:100%}
.bank dd{margin:0;font-weight:600;display:flex;align-items:center;justify-content:space-between;flex-basis:100%;overflow-wrap:anywhere}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:1.15rem;letter-spacing:.04em}
.countdown{font-weight:600;background:#fff7e0;color:#6b4700;border-radius:6px;padding:.5rem .75rem}
.card-used{font-weight:600}
.cancel{text-align:center}
.secure{color:#4b5563;font-size:.8rem;text-align:center;margin-top:1.5rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
`;
