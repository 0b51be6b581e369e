// The report's style sheet, one line per rule group as it is sent. The page's Content-Security-Policy
// allows it by its hash, so its bytes are fixed: change it here and the hash follows.

/** The report's CSS, inlined in its `<style>`: one element per line of the sheet. */
export const REPORT_STYLE: string = [
    '',
    ':root{--fg:#1d2430;--muted:#5b6472;--line:#d9dee5;--ok:#1f7a3a;--warn:#9a6200;--bad:#b42318;' +
        '--none:#5b6472;--bg:#fff;--alt:#f5f7fa}',
    '*{box-sizing:border-box}' +
        'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);' +
        'background:var(--bg);margin:0 auto;padding:24px;max-width:1200px}',
    'h1{font-size:22px;margin:0 0 4px}' +
        'h2{font-size:18px;margin:32px 0 4px;padding-top:8px;border-top:2px solid var(--line)}' +
        'h3{font-size:14px;margin:16px 0 6px;color:var(--muted);text-transform:uppercase;' +
        'letter-spacing:.04em}',
    'table{border-collapse:collapse;width:100%}' +
        'th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}' +
        'th{font-weight:600;color:var(--muted)}',
    '.st{display:inline-block;min-width:80px;padding:0 6px;border-radius:4px;font-size:12px;' +
        'font-weight:600;text-align:center;border:1px solid currentColor}',
    '.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.none{color:var(--none)}',
    '.gr{display:inline-block;min-width:70px;font-weight:700;padding-left:8px}' +
        '.veto,.vetoes{color:var(--bad);font-weight:600}',
    '.meta,.note,.ref{color:var(--muted)}.note{font-style:italic}' +
        '.reason{margin-top:4px;margin-bottom:4px}code{font-size:12px;word-break:break-all}',
    '.rows>.head,.rows summary{display:grid;' +
        'grid-template-columns:minmax(180px,2fr) 100px 80px 80px 90px minmax(120px,2fr);gap:8px;' +
        'align-items:center}',
    '.rows>.head{font-weight:600;color:var(--muted);padding:4px 8px;border-bottom:1px solid var(--line)}',
    'details{border-bottom:1px solid var(--line)}details>summary{cursor:pointer;padding:4px 8px}' +
        'details[open]>summary{background:var(--alt)}',
    'details.node{margin-left:16px}' +
        'details.node summary{grid-template-columns:minmax(180px,2fr) 100px 80px minmax(120px,3fr)}',
    'summary{list-style:none}summary::-webkit-details-marker{display:none}' +
        "summary .name::before{content:'\\25B8  ';color:var(--muted)}" +
        "details[open]>summary .name::before{content:'\\25BE  '}",
    'details>*:not(summary){margin-left:24px}.name{font-weight:600;overflow-wrap:anywhere}' +
        '.num{color:var(--muted)}',
    '.trace dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}' +
        '.trace dt{color:var(--muted)}.trace dd{margin:0;overflow-wrap:anywhere}',
    'table.answers{font-size:13px;margin:8px 0}td.why{max-width:460px;overflow-wrap:anywhere}' +
        '.steps{font-size:12px;color:var(--muted)}',
    '.provisional{border-left:3px solid var(--warn);padding:4px 8px;background:var(--alt)}' + '.hints{font-size:13px}',
    '.toolbar{margin:12px 0}.toolbar button{font:inherit;margin-right:8px}.errors{color:var(--bad)}',
    '[hidden]{display:none!important}',
    '.overview{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:16px;margin:20px 0 8px}',
    '.card{border:1px solid var(--line);border-radius:8px;padding:12px 16px}.card.wide{grid-column:1/-1}',
    '.card h2{font-size:15px;margin:0 0 6px;padding:0;border:0}' +
        '.fine{color:var(--muted);font-size:12px;margin:4px 0 8px}.figure{margin:2px 0 4px;font-size:14px}' +
        '.figure b{font-size:30px;line-height:1.1;margin-right:4px}',
    'table.dist caption{text-align:left;color:var(--muted);font-size:12px;padding-bottom:4px}' +
        'table.dist th,table.dist td{border:0;padding:3px 4px;vertical-align:middle}',
    'table.dist th{width:84px;color:var(--fg)}' +
        'table.dist td.n{width:36px;text-align:right;font-weight:700;font-variant-numeric:tabular-nums}' +
        'table.dist tr.zero th,table.dist tr.zero td.n{color:var(--muted);font-weight:400}',
    'svg.bar{display:block}rect.track{fill:var(--alt)}',
    'rect.g-a,rect.s-graded{fill:#2e7d32}rect.g-b{fill:#7cb342}rect.g-c{fill:#f2b705}' +
        'rect.g-d,rect.s-blocked{fill:#ef6c00}rect.g-f{fill:#d32f2f}rect.g-rej,rect.s-rejected{fill:#6d1a1a}' +
        'rect.g-none,rect.s-pending{fill:#b0bec5}rect.s-provisional{fill:#5c6bc0}',
    '.h.g-a,.pill.g-a{background:#c8e6c9;color:#1b5e20}.h.g-b,.pill.g-b{background:#e6f2c9;color:#33691e}' +
        '.h.g-c,.pill.g-c{background:#fff1b8;color:#6d4c00}',
    '.h.g-d,.pill.g-d{background:#ffd8b0;color:#8a3c00}.h.g-f,.pill.g-f{background:#ffcdd2;color:#8e0000}' +
        '.h.g-rej,.pill.g-rej{background:#6d1a1a;color:#fff}' +
        '.h.g-none,.pill.g-none{background:#eceff1;color:#455a64}',
    '.fixes{font-size:13px;margin:4px 0 12px}.fixes li{margin:2px 0}.fixes .hint{color:var(--muted)}' +
        '.fixcount{font-size:13px;margin:2px 0}details.fixmore>summary{font-size:13px;color:var(--muted)}',
    '.pill{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:700;' + 'line-height:20px}',
    'table.heat th{white-space:nowrap;vertical-align:middle}' +
        'table.heat thead th:first-child{text-align:left}table.heat tbody th{width:1%;padding-right:16px}' +
        'table.heat thead th{text-align:center;max-width:160px;overflow:hidden;text-overflow:ellipsis}',
    'td.h{text-align:center;white-space:nowrap;border:2px solid var(--bg);border-radius:6px;' +
        'min-width:92px;padding:5px 8px;vertical-align:middle}td.h b{font-size:15px}td.h .sc{font-size:12px}' +
        'td.h small{display:block;font-size:11px;opacity:.85}',
    'td.h.isl{border-right:10px solid var(--bg)}td.h.empty{color:var(--muted);font-size:12px}' +
        '.legend{display:flex;flex-wrap:wrap;gap:6px;margin:10px 0 0}',
    'ul.worse{margin:0;padding-left:18px}ul.worse li{margin:4px 0}.change{white-space:nowrap}',
    '.tablebar{display:flex;gap:12px;align-items:center;margin:8px 0}' +
        '.tablebar input{font:inherit;padding:3px 8px;min-width:260px}',
    'th.sort{cursor:pointer;user-select:none}th.sort:hover{color:var(--fg)}' +
        "th[aria-sort=ascending]::after{content:' \\25B4'}th[aria-sort=descending]::after{content:' \\25BE'}",
    'td.q{min-width:220px;max-width:340px}' + '.qtext{display:block;color:var(--muted);font-size:12px;margin-top:2px}',
    '.scroll{overflow-x:auto}@media (max-width:900px){.overview{grid-template-columns:1fr}}',
    '@media print{.toolbar,.tablebar{display:none}}',
    ''
].join('\n')
