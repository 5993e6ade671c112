"""The last release's pages as production serves them and as people use them on a 390 px phone:
the club sign-up's steps, the directory and its request to join, the new club's checklist and
the join requests answered, the members' import from a spreadsheet, the guide « Aide » with its
pictures, and the club's closing.

The site runs as deployed (``production_server``: DEBUG off, static files under hashed names
served by whitenoise from the WSGI application gunicorn runs), behind what stands for its TLS
proxy (deploy/nginx.conf): the browser speaks HTTPS to the server's port and every request
reaches the site with ``X-Forwarded-Proto: https`` and ``X-Forwarded-For``, the settings of
deploy/systemd/clubwhist.env.example (secure cookies, the proxy's header trusted, one proxy).
So every form posted proves its CSRF check passes behind the proxy, with no trusted origin
listed, and the links the site e-mails are its HTTPS addresses.

One phone, one walk. On each page: answered 200 (or the page's own status), every static
file found under its hashed name, nothing on the console, nothing wider than the screen, every
target at least 44 × 44 px (test_night_fingers.py's rule), the keyboard's focus visible, and
axe-core with no serious violation (test_accessibility.py's run; axe is served from the site's
origin, so the Content-Security-Policy stays on and a refusal is a console error). The guide in
English and Dutch is checked as served (status, hashed files, pictures, width). Every offence
of every page is named in the one failure."""

from __future__ import annotations

import re
import ssl
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from club.models import Club, ClubSignup, JoinRequest
from club.services.signup_opening import signup_approve
from tests.club.views.test_member_import import members_rows, xlsx_of
from tests.e2e.conftest import CHROMIUM, page_width
from tests.e2e.test_accessibility import AXE, RUN_AXE, SERIOUS
from tests.e2e.test_night_fingers import MIN_TARGET, TARGETS
from tests.factories import ClubFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "trefle-carreau-pique-coeur"
LINK = re.compile(r"https://\S+/inscription/confirmer/[^/\s]+/")
# A file of the site's static folder as production names it: its content's hash in its name.
HASHED = re.compile(r"/static/.+\.[0-9a-f]{12}\.[a-z0-9]+$")
# Where the test's browser takes axe-core from: a file of the site's own origin, so that the
# Content-Security-Policy (scripts from the site only) stays on while axe runs.
AXE_PATH = "/__tests__/axe.js"
# Every element the keyboard reaches, focused in turn once the keyboard has moved the focus
# (the browser then draws it as the keyboard's): those on which no ring nor shadow shows it.
FOCUS_UNSEEN = """() => {
  const reached = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[tabindex]:not([tabindex="-1"])';
  const unseen = [];
  for (const element of document.querySelectorAll(reached)) {
    if (element.disabled || element.tabIndex < 0) continue;
    if (!element.checkVisibility({visibilityProperty: true})) continue;
    element.focus();
    if (document.activeElement !== element) continue;
    const style = getComputedStyle(element);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    if (ring || style.boxShadow !== 'none') continue;
    const text = element.innerText || element.value || element.getAttribute('aria-label') || '';
    const what = element.tagName.toLowerCase() + ' ' + text.replace(/\\s+/g, ' ').trim();
    unseen.push(what.slice(0, 34));
  }
  document.activeElement.blur();
  return unseen;
}"""
# Every static file a page names (stylesheets, scripts, pictures, icons).
STATIC_NAMED = """() => [
  ...[...document.querySelectorAll('link[href]')].map(e => e.href),
  ...[...document.querySelectorAll('script[src]')].map(e => e.src),
  ...[...document.images].map(e => e.src),
].filter(url => url.includes('/static/'))"""
# The pictures of the page loaded now, however far down (the guide's wait until scrolled to).
PICTURES_LOADED = """async () => Promise.all([...document.images].map(image => {
  image.loading = 'eager';
  return image.decode().then(() => [image.src, image.naturalWidth], () => [image.src, 0]);
}))"""


@pytest.fixture
def behind_the_proxy(
    production_server: SimpleNamespace, settings, tmp_path: Path
) -> Iterator[SimpleNamespace]:
    """``production_server`` behind its TLS proxy, as deploy/nginx.conf sets it: the browser
    speaks HTTPS (a certificate made for the test), the site receives plain HTTP with the
    proxy's headers, and trusts them as the deployment's settings say."""
    key, certificate = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-keyout", str(key), "-out", str(certificate)),
        ],
        check=True,
        capture_output=True,
    )
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(certificate, key)
    server = production_server.thread.httpd
    app = server.get_app()

    def nginx(environ: dict, start_response: Callable) -> object:
        environ["HTTP_X_FORWARDED_PROTO"] = "https"
        seen = environ.get("HTTP_X_FORWARDED_FOR")
        client = environ["REMOTE_ADDR"]
        environ["HTTP_X_FORWARDED_FOR"] = f"{seen}, {client}" if seen else client
        return app(environ, start_response)

    server.set_app(nginx)
    # The handshake happens in the request's thread, on its first read: a connection opened
    # ahead by the browser never holds up the server's loop.
    server.socket = tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    url = f"https://localhost:{production_server.thread.port}"
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.TRUSTED_PROXY_COUNT = 1
    settings.CLUB_SIGNUP = "approval"
    settings.SITE_URL = url
    yield SimpleNamespace(url=url)


class Walk:
    """The phone's walk: what each page it looks at does wrong, page by page."""

    def __init__(self, page: Page, base: str) -> None:
        self.page, self.base = page, base
        self.offences: list[str] = []
        self.here = "?"
        self.status = 200
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.offend(f"script error: {error}"))
        page.on("response", self._response)

    def offend(self, what: str) -> None:
        self.offences.append(f"{self.here}: {what}")

    def _console(self, message) -> None:
        # The page's own status other than 200 (a closed club's 410) is said on the console.
        expected = f"the server responded with a status of {self.status} "
        if message.type == "error" and not (self.status != 200 and expected in message.text):
            self.offend(f"console: {message.text}")

    def _response(self, response) -> None:
        if response.status >= 400 and "/static/" in response.url:
            self.offend(f"{response.status} {response.url}")
        elif response.status >= 500:
            self.offend(f"{response.status} {response.url}")

    def goto(self, name: str, path: str, status: int = 200, *, served_only: bool = False) -> None:
        self.here, self.status = name, status
        response = self.page.goto(self.base + path)
        if response is None or response.status != status:
            self.offend(f"answered {response and response.status}, not {status}")
        self.look(name, served_only=served_only)
        self.status = 200

    def look(self, name: str, *, served_only: bool = False) -> None:
        """The page on the screen, as a person uses it (``served_only``: as production serves
        it, its files and its width; the same page in another language is used as the first)."""
        self.here = name
        page = self.page
        page.wait_for_load_state("load")
        for url in page.evaluate(STATIC_NAMED):
            if not HASHED.search(url.split("?")[0]):
                self.offend(f"a static file without its hashed name: {url}")
        for url, width in page.evaluate(PICTURES_LOADED):
            if not width:
                self.offend(f"picture not shown: {url}")
        width = page_width(page)
        if width > PHONE["width"]:
            self.offend(f"{width} px wide")
        if served_only:
            return
        for target in page.evaluate(TARGETS):
            if target["width"] < MIN_TARGET or target["height"] < MIN_TARGET:
                self.offend(
                    f"<{target['tag']}> {target['text']!r} {target['width']} × {target['height']}"
                )
        page.keyboard.press("Tab")
        for what in page.evaluate(FOCUS_UNSEEN):
            self.offend(f"focus not shown on <{what}>")
        page.add_script_tag(url=self.base + AXE_PATH)
        for violation in page.evaluate(RUN_AXE):
            if violation["impact"] in SERIOUS:
                self.offend(f"axe {violation['id']}: {violation['nodes']}")


def language_chosen(page: Page, language: str) -> None:
    """The header's menu opened on the phone, the language chosen there (its form posts)."""
    page.locator("[data-menu-toggle]").click()
    page.locator(".language-switch select").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{language}"))


@pytest.fixture
def trusting_browser(browser: Browser) -> Iterator[Browser]:
    """The tests' chromium, once more, trusting the test's certificate: a page's service
    worker is refused on an origin whose certificate the browser doubts, whatever the
    context's ``ignore_https_errors`` says."""
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--ignore-certificate-errors",
        ],
    )
    yield trusting
    trusting.close()


def test_the_new_pages_as_production_serves_them_on_a_phone(
    behind_the_proxy, trusting_browser, mailoutbox, tmp_path
):
    base = behind_the_proxy.url
    # Another club listed: the home page is then the directory (one club: its page).
    ClubFactory(name="Cercle des Cœurs de Namur", town="Namur", listed=True)
    context = trusting_browser.new_context(
        viewport=PHONE,
        locale="fr-BE",
        is_mobile=True,
        has_touch=True,
        ignore_https_errors=True,
    )
    context.route(
        base + AXE_PATH,
        lambda route: route.fulfill(path=AXE, content_type="text/javascript"),
    )
    page = context.new_page()
    walk = Walk(page, base)

    # The guide, its contents and each page with its pictures, in each of its languages (the
    # header's language switch, a form posted).
    for language in ("fr", "en", "nl"):
        if language != "fr":
            language_chosen(page, language)
        walk.goto(f"guide ({language})", "/aide/", served_only=language != "fr")
        contents = page.locator(".guide-contents a")
        titles = contents.all_inner_texts()
        paths = contents.evaluate_all("links => links.map(link => link.pathname)")
        for title, path in zip(titles, paths, strict=True):
            walk.goto(f"guide {title} ({language})", path, served_only=language != "fr")
    language_chosen(page, "fr")

    # A secretary signs her club up: her address, the e-mail's link, her password.
    walk.goto("sign-up, address", "/inscription/")
    page.get_by_label("Votre adresse e-mail").fill("marie@example.org")
    page.get_by_label("Votre nom").fill("Marie Lambert")
    page.get_by_role("button", name="Recevoir le lien de confirmation").click()
    expect(page.locator("h1")).to_have_text("Vérifiez votre boîte e-mail")
    walk.look("sign-up, link sent")
    (letter,) = [m for m in mail.outbox if m.to == ["marie@example.org"]]
    walk.goto("sign-up, password", LINK.search(letter.body).group(0).removeprefix(base))
    page.locator("#id_new_password1").fill(PASSWORD)
    page.locator("#id_new_password2").fill(PASSWORD)
    page.get_by_role("button", name="Ouvrir mon compte et continuer").click()

    # The club, its first season, the last look, sent for approval.
    expect(page.locator("h1")).to_have_text("Le club")
    walk.look("sign-up, the club")
    page.get_by_label("Nom du club").fill("Whist Club de Ciney")
    page.locator("#id_town").fill("Ciney")
    page.get_by_label("Jeu et tableau des points").select_option("rcwhist")
    page.get_by_label("Montrer le club dans la liste").check()
    page.get_by_role("button", name="Continuer : la première saison").click()
    expect(page.locator("h1")).to_have_text("La première saison")
    walk.look("sign-up, the season")
    page.get_by_role("button", name="Continuer : vérifier et envoyer").click()
    expect(page.locator("main")).to_contain_text("/clubs/whist-club-de-ciney/")
    walk.look("sign-up, review")
    page.get_by_role("button", name="Envoyer la demande").click()
    expect(page.locator("h1")).to_have_text("Demande envoyée")
    walk.look("sign-up, waiting")

    # The operator approves it (Django's admin: tests/e2e/test_club_signup.py); her club's page
    # shows its first steps, one she ticks herself.
    signup_approve(ClubSignup.objects.get(email="marie@example.org"), None)
    club = Club.objects.get(name="Whist Club de Ciney")
    slug = club.slug
    walk.goto("checklist", f"/clubs/{slug}/")
    expect(page.locator(".club-start-steps")).to_be_visible()
    page.get_by_role("button", name="Ce tableau nous convient tel quel").click()
    expect(page.locator("#step-point_table")).to_have_class("done")

    # A newcomer, on the same phone signed out, finds the club in the directory and asks.
    context.clear_cookies()
    walk.goto("directory", "/")
    card = page.locator(".card", has_text="Whist Club de Ciney")
    card.get_by_role("link", name=re.compile("Demander à rejoindre")).click()
    walk.look("asking to join")
    page.get_by_label("Votre nom").fill("Paul Dumont")
    page.get_by_label("Votre adresse e-mail").fill("paul@example.org")
    page.get_by_role("button", name="Envoyer ma demande").click()
    expect(page.locator(".messages")).to_contain_text("Votre demande est envoyée")
    assert JoinRequest.objects.filter(club=club, email="paul@example.org").exists()

    # The secretary signs in again and answers it.
    walk.goto("login", f"/compte/login/?next=/clubs/{slug}/gestion/demandes/")
    page.fill("#id_username", "marie@example.org")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("main")).to_contain_text("Paul Dumont")
    walk.look("join requests")
    page.get_by_role("button", name="Accepter").first.click()
    expect(page.locator(".messages")).to_contain_text("Paul Dumont est membre du club")
    # His invitation's link is the site's HTTPS address: the proxy's header was trusted.
    to_paul = [m.body for m in mail.outbox if m.to == ["paul@example.org"]]
    assert any(f"{base}/compte/invitation/" in body for body in to_paul), to_paul

    # Her members from a spreadsheet: the file, its columns, the lines, stored.
    workbook = tmp_path / "membres.xlsx"
    workbook.write_bytes(xlsx_of(members_rows(6)))
    walk.goto("member import, the table", f"/clubs/{slug}/membres/importer/")
    page.set_input_files("#id_file", str(workbook))
    page.click("button:has-text('Lire le tableau')")
    expect(page.locator("#id_first_name")).to_have_value("0")
    walk.look("member import, the columns")
    page.click("button:has-text('Continuer')")
    expect(page.locator(".import-counts")).to_contain_text("6 nouveaux membres")
    walk.look("member import, the lines")
    page.click("button:has-text('Importer les membres')")
    expect(page.locator(".messages")).to_contain_text("6 membres importés.")

    # The club leaves: its archive downloaded, its name typed, closed.
    walk.goto("closing", f"/clubs/{slug}/gestion/fermer/")
    archive = page.request.get(base + f"/clubs/{slug}/gestion/archive.zip")
    if archive.status != 200 or archive.headers["content-type"] != "application/zip":
        walk.offend(f"the archive answered {archive.status} {archive.headers['content-type']}")
    page.get_by_label("Le nom du club, pour confirmer").fill("Whist Club de Ciney")
    page.get_by_role("button", name=re.compile("Fermer")).click()
    expect(page.locator("h1")).to_contain_text("Whist Club de Ciney")
    walk.look("closed")
    walk.goto("the old address", f"/clubs/{slug}/", status=410)

    assert walk.offences == [], "\n".join(walk.offences)
