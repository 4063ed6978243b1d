#!/bin/sh
# Compaction figures: when the real Claude Code compacts at two thresholds written by
# `throughline config --autocompact`, and what the request after compaction carries, for each
# client version installed. The figures are the lines hook-cli/tests/e2e_compact.rs prints.
#
#     bench/compact.sh [CLAUDE_BINARY...]
#
# Default binaries: the current release and the oldest supported client under /tmp/cc.
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- /tmp/cc/node_modules/claude-code-current/claude \
    /tmp/cc/node_modules/claude-code-oldest/claude
for bin in "$@"; do
    echo "## $("$bin" --version 2>/dev/null | head -n 1) ($bin)"
    THROUGHLINE_CLAUDE_BIN="$bin" cargo test -q -p throughline --test e2e_compact -- \
        --nocapture --test-threads 1 2>&1 |
        grep -oE '(compact at|/compact after|test result).*' || exit 1
done
