# The checks of scripts/test-package; sourced, not run.

# What both packages install, besides the documentation.
installed_files() {
  printf '%s\n' /usr/bin/switchboard /usr/bin/switchboard-cli /usr/bin/switchboard-demo-server /usr/bin/switchboard-confine \
    /usr/share/applications/Switchboard.desktop \
    /usr/share/metainfo/dev.switchboard.app.metainfo.xml
  local size
  for size in 16 24 32 48 64 128 256 512; do
    echo "/usr/share/icons/hicolor/${size}x${size}/apps/switchboard.png"
  done
}

# Fails naming each line of `wanted` (one a line) missing from the lines of `have`.
expect_lines() {
  local what=$1 have=$2 wanted=$3 line missing=()
  while IFS= read -r line; do
    grep -qxF -- "$line" <<<"$have" || missing+=("$line")
  done <<<"$wanted"
  [ ${#missing[@]} -eq 0 ] || die "$what lacks: ${missing[*]}"
}

expect_match() {
  local what=$1 text=$2 pattern=$3
  grep -qE -- "$pattern" <<<"$text" || die "$what does not match /$pattern/: $text"
}

check_rpm() {
  local rpm=$1
  step "the .rpm: $(basename "$rpm")"
  rpm -qip "$rpm"
  local info files requires recommends
  info=$(rpm -qip "$rpm" 2>/dev/null)
  expect_match "its name" "$info" '^Name +: switchboard$'
  expect_match "its license" "$info" '^License +: MIT OR Apache-2.0$'
  files=$(rpm -qlp "$rpm" 2>/dev/null)
  expect_lines "its file list" "$files" "$(installed_files
    printf '%s\n' /usr/share/licenses/switchboard/LICENSE-MIT /usr/share/licenses/switchboard/LICENSE-APACHE)"
  requires=$(rpm -qp --requires "$rpm" 2>/dev/null)
  expect_match "its requirements" "$requires" '^libwebkit2gtk-4\.1\.so'
  expect_match "its requirements" "$requires" '^libayatana-appindicator-gtk3'
  recommends=$(rpm -qp --recommends "$rpm" 2>/dev/null)
  expect_match "its recommendations" "$recommends" '^gnome-keyring'
  expect_match "its recommendations" "$recommends" '^bubblewrap'
  # Nothing runs on install or removal: the person's files are never touched.
  [ -z "$(rpm -qp --scripts "$rpm" 2>/dev/null)" ] || die "the .rpm has scriptlets"
  echo "requires: $(tr '\n' ' ' <<<"$requires")"
  echo "recommends: $(tr '\n' ' ' <<<"$recommends")"
}

check_deb() {
  local deb=$1
  step "the .deb: $(basename "$deb")"
  dpkg-deb --info "$deb"
  local files control
  files=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./||; s|^|/|')
  expect_lines "its file list" "$files" "$(installed_files; echo /usr/share/doc/switchboard/copyright)"
  expect_match "its dependencies" "$(dpkg-deb -f "$deb" Depends)" 'libwebkit2gtk-4\.1-0'
  expect_match "its dependencies" "$(dpkg-deb -f "$deb" Depends)" 'libayatana-appindicator3-1'
  expect_match "its recommendations" "$(dpkg-deb -f "$deb" Recommends)" 'gnome-keyring'
  expect_match "its recommendations" "$(dpkg-deb -f "$deb" Recommends)" 'bubblewrap'
  # The C library it asks for is at least the newest the binaries were linked against.
  local glibc needed
  glibc=$(dpkg-deb -f "$deb" Depends | grep -oP 'libc6 \(>= \K[0-9.]+') || die "the .deb does not depend on libc6"
  needed=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*usr/bin/*' |
    grep -aoE 'GLIBC_[0-9]+\.[0-9]+' | sed 's/GLIBC_//' | sort -uV | tail -n1)
  dpkg --compare-versions "$glibc" ge "$needed" || die "the binaries need glibc $needed, the .deb asks for $glibc"
  control=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | sed 's|^\./||' | grep . | sort | tr '\n' ' ')
  [ "$control" = "control md5sums " ] || die "the .deb has maintainer scripts: $control"

  local unpacked
  unpacked=$(mktemp -d)
  dpkg-deb -x "$deb" "$unpacked"
  desktop-file-validate "$unpacked/usr/share/applications/Switchboard.desktop"
  appstreamcli validate --no-net "$unpacked/usr/share/metainfo/dev.switchboard.app.metainfo.xml"
  rm -rf "$unpacked"

  step "lintian"
  # Errors fail the check; warnings and notes are shown. What the package overrides, with
  # the reason, is in assets/linux/lintian-overrides.
  lintian --fail-on error --display-info "$deb" || die "lintian found errors"
}

# Runs as PID 1 of a namespace of its own, so that what it mounts and starts ends with it.
inside() {
  local root=$1 deb=$2 archives=$3
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  mount --bind "$archives" "$root/var/cache/apt/archives"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cp "$deb" "$root/tmp/"

  step "installing $(basename "$deb") with apt"
  local start=$SECONDS
  chroot "$root" apt-get update -qq
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
  echo "apt installed it with its dependencies in $((SECONDS - start)) s"
  expect_lines "the installed files" "$(chroot "$root" dpkg -L switchboard)" "$(installed_files)"

  # A person of their own, with a keyring of their own.
  chroot "$root" useradd --create-home --uid 1000 --shell /bin/bash ada
  install -d -o 1000 -g 1000 -m 700 "$root/run/user/1000"
  local xfd
  xfd=$(mktemp -u) && mkfifo "$xfd"
  Xvfb -displayfd 1 -screen 0 1280x800x24 -nolisten tcp >"$xfd" 2>/dev/null &
  read -r display <"$xfd"
  rm -f "$xfd"
  export DISPLAY=:$display
  as_person() {
    chroot --userspec=1000:1000 "$root" env -i HOME=/home/ada USER=ada LOGNAME=ada \
      SHELL=/bin/bash PATH=/usr/bin:/bin XDG_RUNTIME_DIR=/run/user/1000 DISPLAY="$DISPLAY" "$@"
  }

  step "the installed switchboard-cli lists the installed demo server's tools"
  local tools
  tools=$(as_person switchboard-cli list tools -- switchboard-demo-server)
  expect_match "the demo server's tools" "$tools" '"name": *"echo"'
  grep -o '"name": *"[a-z_]*"' <<<"$tools" | tr '\n' ' '
  echo

  step "the installed app opens its window and starts the bundled demo server"
  local session app
  start_app first
  wait_painted test-artifacts/package-window-first.png
  local demo= deadline
  deadline=$((SECONDS + 30))
  until [ -n "$demo" ]; do
    [ $SECONDS -lt $deadline ] || die "the app did not start the demo server"
    demo=$(pgrep -P "$app" -f '^/usr/bin/switchboard-demo-server$') || sleep 0.2
  done
  echo "the app (pid $app) runs $(readlink "/proc/$demo/exe") (pid $demo)"
  stop_app

  # Running, as the app sees it: an agent reaches the demo server's tools through the app's
  # gateway, with the installed bridge, only once the app has it running.
  step "started again with an agent, the app serves it the running demo server's tools"
  local config=$root/home/ada/.config/switchboard/config.json
  node -e 'const fs=require("fs"),f=process.argv[1],c=JSON.parse(fs.readFileSync(f));
    c.agents={...c.agents,"package check":{}}; fs.writeFileSync(f,JSON.stringify(c,null,2))' "$config"
  start_app again
  tools= deadline=$((SECONDS + 60))
  until grep -q '"name": *"demo__echo"' <<<"$tools"; do
    [ $SECONDS -lt $deadline ] || die "the agent never saw the demo server's tools: $tools"
    tools=$(as_person switchboard-cli list tools -- switchboard-cli bridge --agent "package check" 2>/dev/null) || sleep 0.2
  done
  echo "the agent sees: $(grep -o '"name": *"demo__[a-z_]*"' <<<"$tools" | head -n3 | tr '\n' ' ')..."
  wait_painted test-artifacts/package-window.png

  step "stopping the app and purging the package"
  stop_app
  local before after
  before=$(person_files "$root")
  grep -q '/.config/switchboard/config.json$' <<<"$before" || die "the app wrote no configuration"
  grep -q '/.config/switchboard/audit.sqlite$' <<<"$before" || die "the app kept no audit trail"
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq switchboard >/dev/null
  ! chroot "$root" dpkg -s switchboard >/dev/null 2>&1 || die "switchboard is still installed"
  [ ! -e "$root/usr/bin/switchboard" ] || die "purge left /usr/bin/switchboard"
  after=$(person_files "$root")
  [ "$before" = "$after" ] || die "purge changed the person's files: $(diff <(echo "$before") <(echo "$after"))"
  echo "purge left the person's files as they were:"
  sed 's/^[0-9a-f]*  /  /' <<<"$after"
}

# Starts the installed app as the person, in a D-Bus session with their keyring unlocked.
start_app() {
  launched=$(date +%s.%N)
  as_person dbus-run-session -- sh -c \
    'printf person | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec switchboard' \
    >"test-artifacts/package-app-$1.log" 2>&1 &
  session=$!
  local deadline=$((SECONDS + 30))
  until app=$(pgrep -x switchboard); do
    [ $SECONDS -lt $deadline ] || die "the app did not start (test-artifacts/package-app-$1.log)"
    sleep 0.1
  done
}

# Waits for the app's window to be painted and connected to the host, and keeps a
# screenshot of it in `shot`.
wait_painted() {
  local shot=$1 window mapped painted= colors=0 status=0 deadline=$((SECONDS + 60))
  window=$(timeout 60 xdotool search --sync --onlyvisible --name '^Switchboard$' | head -n1) ||
    die "no Switchboard window within 60 s"
  mapped=$(date +%s.%N)
  # Painted: the web view has drawn the page (a blank view is one or two colours).
  # Connected: the status bar shows the host's details (version, configuration, revisions)
  # across the window, not "Connecting to the host..." at its start.
  until [ "$colors" -gt 64 ] && [ "$status" -gt 400 ]; do
    [ $SECONDS -lt $deadline ] ||
      die "the window was never painted and connected ($colors colours, status bar ${status} px wide; $shot)"
    import -window "$window" "$shot" 2>/dev/null || continue
    colors=$(identify -format %k "$shot")
    [ "$colors" -gt 64 ] && [ -z "$painted" ] && painted=$(date +%s.%N)
    status=$(status_bar_width "$shot")
  done
  echo "window mapped $(elapsed "$launched" "$mapped") s, painted $(elapsed "$launched" "$painted") s and connected $(elapsed "$launched" "$(date +%s.%N)") s after launch ($colors colours; $shot)"
}

# How wide the text of the window's status bar is, in pixels (its bottom 18 rows, trimmed).
status_bar_width() {
  convert "$1" -gravity South -crop 0x18+0+4 +repage -fuzz 10% -trim +repage -format %w info:
}

stop_app() {
  kill "$app"
  wait "$session" || true
}

# Every file in the person's home, with its checksum.
person_files() {
  (cd "$1" && find home/ada -type f -print0 | sort -z | xargs -0 sha256sum)
}

elapsed() {
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}
