#!/usr/bin/env python3
"""Summary backend cost: requests and input tokens per 100 turns on the synthetic sessions.

    bench/summaries.py [--sessions 10] [--batches 1,10,20,40] [--bin PATH]

Writes synthetic Claude Code sessions of 100 turns (bench/synth.py), imports them, then, for
each batch size, runs `throughline summarize` against a local OpenAI-compatible server that
answers every turn it is asked for with one valid line and reports usage as one token per
four characters of the request (the estimate `stats` uses; no tokenizer). Reported per 100
turns that left their session's verbatim window: requests, input tokens, output tokens.
The daily cap is lifted for the run. Prints a Markdown table.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture import build_cli, synthetic_corpus  # noqa: E402


class Server(http.server.BaseHTTPRequestHandler):
    """POST /v1/chat/completions: a line per `<turn id="...">` of the prompt."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = "\n".join(m["content"] for m in body["messages"])
        ids = re.findall(r'<turn id="([^"]+)">', prompt)
        text = "".join(f"{i}: Checked ledger part {i}; 8443 kept, v3.14.2 tagged.\n" for i in ids)
        answer = json.dumps({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": -(-len(prompt) // 4),
                      "completion_tokens": -(-len(text) // 4)},
        }).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--batches", default="1,10,20,40")
    ap.add_argument("--bin", help="a built throughline (default: scripts/build-cli)")
    args = ap.parse_args()
    binary = args.bin or build_cli()
    out, corpus, home, env = synthetic_corpus("summaries", args.sessions * 100)
    subprocess.run([binary, "import", "--from", corpus, "--no-index"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    db = os.path.join(home, "throughline.db")
    print(f"{args.sessions} synthetic sessions of 100 turns; six newest turns of each stay "
          "verbatim, the rest are due.\n")
    print("| turns a request | due turns | requests / 100 turns | input tokens / 100 turns "
          "| output tokens / 100 turns | lines kept |")
    print("|---|---|---|---|---|---|")
    for batch in [int(b) for b in args.batches.split(",")]:
        # A fresh start for each batch size: no line by a model yet.
        with sqlite3.connect(db) as conn:
            conn.executescript("DELETE FROM model_summaries; DELETE FROM summary_calls;")
        with open(os.path.join(home, "config.json"), "w") as f:
            json.dump({"summary_backend": "openai", "summary_url": url, "summary_model": "bench",
                       "summary_batch_turns": batch, "summary_daily_calls": 100_000}, f)
        subprocess.run([binary, "summarize", "--json"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        stats = json.loads(subprocess.run([binary, "stats", "--all", "--json"], env=env,
                                          check=True, stdout=subprocess.PIPE).stdout)
        s = stats["summaries"]["spend"]
        per = 100 / s["turns"]
        print(f"| {batch} | {s['turns']} | {s['calls'] * per:.1f} | {s['input_tokens'] * per:,.0f} "
              f"| {s['output_tokens'] * per:,.0f} | {s['lines']} of {s['turns']} |")
    server.shutdown()
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
