// The dashboard's only script: copy buttons. Everything else works without JavaScript.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field) return;
  const value = 'value' in field ? field.value : field.textContent;
  const done = () => {
    button.textContent = 'Copied';
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(value).then(done, () => {
      field.select?.();
    });
  } else {
    field.select?.();
  }
});
