"""browser.py - one headless chromium driven over the DevTools protocol.

Chromium is started with --remote-debugging-pipe: it reads protocol
commands from file descriptor 3 and writes replies and events to 4, each a
JSON object ended by a NUL byte. That needs nothing but the standard
library (no websocket client, no node), so the viewer's test runs wherever
Debian's chromium is installed.

    with Browser() as b:
        b.open("file:///tmp/view.html#game=3&move=5", width=1200, height=800)
        b.key("ArrowRight")                  # a real key press, default actions included
        b.wheel(300, 200, -100)              # the mouse wheel over a point; b.drag(...) a drag
        b.js("document.title")               # the value of an expression
        b.screenshot("/tmp/shot.png")        # what a person would see

As a program, it takes a screenshot, to look at a page as a person would:

    python3 tests/viewer/browser.py 'file:///tmp/games.html#game=3' shot.png 400 800

Key presses go through Input.dispatchKeyEvent, the path a real keyboard
takes inside chromium: a focused slider or select acts on them exactly as
it would for a person, which is what the keyboard tests need.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

KEYS = {  # key: (code, windows virtual key code, text)
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "Home": ("Home", 36, ""),
    "End": ("End", 35, ""),
    "PageUp": ("PageUp", 33, ""),
    "PageDown": ("PageDown", 34, ""),
    " ": ("Space", 32, " "),
    "+": ("Equal", 187, "+"),
    "-": ("Minus", 189, "-"),
    "0": ("Digit0", 48, "0"),
    "Enter": ("Enter", 13, "\r"),
    "Tab": ("Tab", 9, ""),
}


def find_chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, executable=None, timeout=60):
        self.executable = executable or find_chromium()
        self.timeout = timeout
        self.next_id = 0
        self.buffer = b""
        self.events = []
        self.console = []  # (type, text) of every console call and uncaught exception
        self.session = None

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="tx-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            # Runs in the child before exec. Both ends are copied out of the
            # way first (either may be 3 or 4), then onto 3 and 4, which
            # stay open across exec (close_fds=False; the pipes' other
            # descriptors are close-on-exec, as os.pipe makes them).
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [self.executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=child_fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close", session=False)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_browser, self.from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.proc.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    # The protocol: one command, its reply; events are kept on the way.
    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self.read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.note_event(reply)

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if ready:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed the pipe: " + self.proc.stderr.read().decode()[-500:])
                self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)

    def note_event(self, event):
        method = event.get("method")
        params = event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            words = [str(a.get("value", a.get("description", ""))) for a in params.get("args", [])]
            self.console.append((params.get("type"), " ".join(words)))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            what = details.get("exception", {}).get("description") or details.get("text")
            self.console.append(("exception", what))
        self.events.append(event)

    def wait_event(self, method):
        deadline = time.monotonic() + self.timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                del self.events[: i + 1]
                return event
        self.events.clear()
        while True:
            event = self.read_message(deadline)
            self.note_event(event)
            if event.get("method") == method:
                self.events.clear()
                return event

    # What a test does with a page.
    def open(self, url, width=1280, height=900):
        """Loads url afresh (a new document, even when only the #hash
        differs) in a window of width x height CSS pixels."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.navigate", {"url": "about:blank"})
        self.wait_event("Page.loadEventFired")
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def js(self, expression):
        """The value of a JavaScript expression in the page (JSON types)."""
        reply = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression}: {reply['exceptionDetails'].get('text')}")
        return reply["result"].get("value")

    def key(self, key):
        """Presses and releases one key, as a keyboard would."""
        code, vk, text = KEYS[key]
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code,
                "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        if text:
            down["text"] = text
            down["unmodifiedText"] = text
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk})

    def click(self, selector):
        """A left click in the middle of the element selector matches."""
        box = self.js(f"(function () {{ var r = document.querySelector({json.dumps(selector)})"
                      ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def wheel(self, x, y, delta_y):
        """One turn of the mouse wheel at (x, y): delta_y < 0 away from the user."""
        self.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0,
                                               "deltaY": delta_y})

    def drag(self, x0, y0, x1, y1, steps=5):
        """Presses the left button at (x0, y0), moves to (x1, y1), releases."""
        self.call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0,
                                               "button": "left", "buttons": 1, "clickCount": 1})
        for i in range(1, steps + 1):
            self.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0 + (x1 - x0) * i / steps,
                                                   "y": y0 + (y1 - y0) * i / steps, "button": "left",
                                                   "buttons": 1})
        self.call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1,
                                               "button": "left", "clickCount": 1})

    def touch(self, kind, points):
        """A touch event: kind touchStart, touchMove or touchEnd, points
        the (x, y) of each finger down (none for touchEnd)."""
        self.call("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

    def html(self):
        return self.js("document.documentElement.outerHTML")

    def screenshot(self, path, full_page=True):
        params = {"format": "png", "captureBeyondViewport": full_page}
        if full_page:
            size = self.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


def main(argv):
    """browser.py URL OUT.png [WIDTH [HEIGHT]]: a screenshot of the whole page."""
    import sys
    if len(argv) not in (3, 4, 5):
        sys.exit(main.__doc__)
    width = int(argv[3]) if len(argv) > 3 else 1280
    height = int(argv[4]) if len(argv) > 4 else 900
    with Browser() as b:
        b.open(argv[1], width=width, height=height)
        b.screenshot(argv[2])
        for kind, text in b.console:
            print(f"console {kind}: {text}", file=sys.stderr)


if __name__ == "__main__":
    import sys
    main(sys.argv)
