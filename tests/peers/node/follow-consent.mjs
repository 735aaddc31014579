// Plays the person in a browser on oidc-provider's own pages: follows redirects with
// its cookies, signs in and consents to whatever is asked, and stops after loading the
// redirect URI (the client's loopback listener).
//
//     node follow-consent.mjs AUTHORIZATION_URL REDIRECT_URI
const [start, redirectUri] = process.argv.slice(2);
const cookies = new Map();

function remember(response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

async function visit(url, init = {}) {
  const headers = { ...(init.headers ?? {}), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  remember(response);
  return response;
}

/// The form of a page: where it posts and its fields, the person's answers filled in.
function form(html, base) {
  const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
  if (!action) return null;
  const fields = new URLSearchParams();
  for (const [, input] of html.matchAll(/<input([^>]*)>/g)) {
    const name = input.match(/name="([^"]+)"/)?.[1];
    if (!name) continue;
    const value = input.match(/value="([^"]*)"/)?.[1] ?? (name === 'login' ? 'ada' : name === 'password' ? 'secret' : '');
    fields.set(name, value);
  }
  return { url: new URL(action.replaceAll('&amp;', '&'), base).toString(), fields };
}

let url = start;
let init = {};
for (let step = 0; step < 20; step++) {
  if (url.startsWith(redirectUri)) {
    const done = await fetch(url);
    console.log(await done.text());
    process.exit(0);
  }
  const response = await visit(url, init);
  init = {};
  const location = response.headers.get('location');
  if (location) {
    url = new URL(location, url).toString();
    continue;
  }
  const html = await response.text();
  const next = form(html, url);
  if (!next) {
    console.error(`stuck at ${url} (HTTP ${response.status}): ${html.slice(0, 500)}`);
    process.exit(1);
  }
  url = next.url;
  init = { method: 'POST', body: next.fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}
console.error('too many steps');
process.exit(1);
