// The report's script. Only a convenience: every row is a <details>, every table in a sensible order,
// all readable without it. It reveals the toolbar and the filters, sorts a table by the clicked header
// (data-v, numbers before text; again reverses) and hides the rows a filter's text does not occur in.
// The page's Content-Security-Policy allows it by its hash: its bytes are what is sent, one statement
// or a few per piece here.

/** The report's client script, inlined in its `<script>`. */
export const REPORT_SCRIPT: string = [
    "const $=(s,r=document)=>[...r.querySelectorAll(s)];document.querySelector('.toolbar').hidden=false;",
    "for(const b of $('.toolbar button'))b.addEventListener('click',()=>{",
    "for(const d of $('details'))d.open=b.dataset.open==='1'});",
    'const key=c=>{const v=c.dataset.v??c.textContent.trim();',
    "return v!==''&&!isNaN(v)?Number(v):v.toLowerCase()};",
    "const cmp=(x,y)=>typeof x!==typeof y?(typeof x==='number'?-1:1):x<y?-1:x>y?1:0;",
    "for(const t of $('table.sortable')){const hs=$('thead th',t);hs.forEach((h,i)=>{h.tabIndex=0;",
    "h.classList.add('sort');const go=()=>{const up=h.getAttribute('aria-sort')!=='ascending';",
    "for(const x of hs)x.removeAttribute('aria-sort');",
    "h.setAttribute('aria-sort',up?'ascending':'descending');",
    't.tBodies[0].append(...[...t.tBodies[0].rows].sort((a,b)=>cmp(key(a.cells[i]),',
    "key(b.cells[i]))*(up?1:-1)))};h.addEventListener('click',go);",
    "h.addEventListener('keydown',e=>{if(e.key==='Enter'||e.key===' '){e.preventDefault();",
    "go()}})})}for(const f of $('input.filter')){const t=document.getElementById(f.dataset.table);",
    "f.parentElement.hidden=false;f.addEventListener('input',()=>{const q=f.value.trim().toLowerCase();",
    "for(const r of t.tBodies[0].rows)r.hidden=q!==''&&!r.textContent.toLowerCase().includes(q)})}"
].join('')
