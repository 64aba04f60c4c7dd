// The position editor: keeps the stone count in view (it must be 162).
(function () {
  'use strict';
  const form = document.getElementById('editor');
  if (!form) return;
  const out = document.getElementById('editor-total');
  function total() {
    let n = 0;
    for (const i of form.querySelectorAll('.hole-input, .kazan-input')) n += parseInt(i.value || '0', 10) || 0;
    out.textContent = String(n);
    out.classList.toggle('bad', n !== 162);
  }
  form.addEventListener('input', total);
  total();
})();
