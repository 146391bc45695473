"""webdriver.py: a small W3C WebDriver client (Python's standard library only) driving
Debian's chromium through chromedriver, for kifu's browser tests.

    with Browser() as b:
        b.open("file:///tmp/page.html")
        b.run("return document.title")
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class SkipTest(Exception):
    """The browser is not installed: the test skips."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, width=1000, height=900, phone=False):
        """phone: emulate a phone's screen of width x height CSS pixels (touch, 3x)."""
        for exe in (CHROMIUM, CHROMEDRIVER):
            if not os.access(exe, os.X_OK):
                raise SkipTest(exe + " is not installed (scripts/deps.sh browser)")
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="kifu-chromium-")
        self.port = free_port()
        self.driver = subprocess.Popen(
            [CHROMEDRIVER, "--port=%d" % self.port, "--allowed-ips=127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        deadline = time.time() + 20
        while True:
            try:
                self._call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline or self.driver.poll() is not None:
                    self.close()
                    raise RuntimeError("chromedriver did not start")
                time.sleep(0.1)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + self.profile,
                "--window-size=%d,%d" % (width, height)]
        chrome = {"binary": CHROMIUM, "args": args}
        if phone:
            # A desktop window cannot be narrower than about 500 px; the emulation can.
            chrome["mobileEmulation"] = {"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 3.0, "touch": True}}
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": chrome,
            "goog:loggingPrefs": {"browser": "ALL"}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError("webdriver %s %s: %s" % (method, path, e.read().decode()[:500]))

    def cmd(self, method, path, body=None):
        return self._call(method, "/session/%s%s" % (self.session, path), body)

    def open(self, url):
        self.cmd("POST", "/url", {"url": url})

    def run(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})

    def click(self, css):
        el = self.find(css)
        key = next(iter(el))
        self.cmd("POST", "/element/%s/click" % el[key], {})

    def click_at(self, css, fx, fy, pointer="mouse"):
        """Click inside the element at fractions (fx, fy) of its size, as a pointer
        ("mouse", or "touch" for a tap)."""
        el = self.find(css)
        ref = el[next(iter(el))]
        rect = self.cmd("GET", "/element/%s/rect" % ref)
        x = int(rect["x"] + rect["width"] * fx)
        y = int(rect["y"] + rect["height"] * fy)
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": pointer, "parameters": {"pointerType": pointer},
            "actions": [{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})

    def key(self, key):
        """Press one key (a WebDriver key code such as "\\ue014" for →) on the page."""
        self.cmd("POST", "/actions", {"actions": [{
            "type": "key", "id": "kbd",
            "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})

    def log(self):
        """The browser console's entries since the last call."""
        try:
            return self.cmd("POST", "/se/log", {"type": "browser"})
        except RuntimeError:
            return []

    def screenshot(self, path):
        png = base64.b64decode(self.cmd("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def print_pdf(self, path):
        """The page as the browser prints it (A4), to a PDF file; returns its bytes."""
        pdf = base64.b64decode(self.cmd("POST", "/print", {"page": {"width": 21.0, "height": 29.7}}))
        with open(path, "wb") as f:
            f.write(pdf)
        return pdf

    def media(self, kind):
        """Style the page for "print" or "screen" (Chromium's DevTools, through the
        driver), so a screenshot shows what printing would; "" ends the emulation (a
        "screen" left on would style printing too)."""
        self.cmd("POST", "/goog/cdp/execute",
                 {"cmd": "Emulation.setEmulatedMedia", "params": {"media": kind}})

    def close(self):
        try:
            if getattr(self, "session", None):
                self.cmd("DELETE", "")
        except Exception:
            pass
        if self.driver.poll() is None:
            self.driver.terminate()
            try:
                self.driver.wait(10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
