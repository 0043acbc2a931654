/**
 * Adds a provider's script tag (async, from its CDN) to the page and answers when it has loaded;
 * rejects when the browser cannot load it (blocked, offline, refused by the CSP). The tag carries
 * `data-outside-tool` so the page's outside scripts can be found (and tests can see them).
 */
export function loadScript(src: string, { id, tool }: { id: string; tool: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.id = id;
    script.src = src;
    script.async = true;
    script.dataset.outsideTool = tool;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => reject(new Error(`The script ${src} could not be loaded.`)), {
      once: true,
    });
    document.head.appendChild(script);
  });
}

/** Removes a script tag added by loadScript (its code, once run, stays: each adapter stops it its own way). */
export function removeScript(id: string): void {
  document.getElementById(id)?.remove();
}

/**
 * Deletes this site's cookies whose names start with `prefix`, on this host and on each parent
 * domain (providers set theirs on the top-most domain they can).
 */
export function deleteCookies(prefix: string): void {
  const names = document.cookie
    .split(';')
    .map((part) => part.trim().split('=')[0] ?? '')
    .filter((name) => name.startsWith(prefix));
  const labels = window.location.hostname.split('.');
  const domains = [''];
  for (let i = 0; i < labels.length - 1; i += 1) domains.push(`; Domain=.${labels.slice(i).join('.')}`);
  for (const name of names) {
    for (const domain of domains) document.cookie = `${name}=; Max-Age=0; Path=/${domain}`;
  }
}
