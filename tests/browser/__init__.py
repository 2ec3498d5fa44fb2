"""Browser tests: Playwright driving Debian's Chromium against a real server."""
