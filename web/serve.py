"""A static file server for the web board: serves the repository root (the page needs web/
and wasm/ side by side) on 127.0.0.1, with the MIME types browsers require for ES modules
and WebAssembly whatever the system's mime.types says.
Usage: python3 web/serve.py PORT   (from the repository root)"""
import functools
import http.server
import sys

port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=".")
handler.func.extensions_map.update(
    {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
     ".css": "text/css", ".html": "text/html"}
)
with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
    print(f"serving http://127.0.0.1:{port}/ (the board: /web/)", flush=True)
    server.serve_forever()
