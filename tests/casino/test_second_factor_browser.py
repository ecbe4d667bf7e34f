"""In a real browser: an auditor's first sign-in enrols an authenticator from the QR code under the
Content-Security-Policy (the code is an SVG image of the site, no inline markup, no violation), and
the code it shows opens the floor (issue 37, item 7)."""

import time

import pytest
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.roles import AUDITOR
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def test_an_auditor_enrols_from_the_qr_code_and_reaches_the_floor(browser_page, make_user, floor, settings):
    settings.OTP_REQUIRED_ROLES = ("pit_boss", "auditor", "admin")
    auditor = make_user(AUDITOR, pits=floor.pits)
    page = browser_page
    page.add_init_script(WATCH)
    page.goto("/accounts/login/")
    page.fill("#id_username", auditor.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].btn-primary")
    page.wait_for_url("**/accounts/otp/enrol/**")
    qr = page.locator("img.otp-qr")
    qr.wait_for()
    page.wait_for_function("document.querySelector('img.otp-qr').complete")
    assert page.evaluate("document.querySelector('img.otp-qr').naturalWidth") > 0
    assert page.evaluate("window.__cspViolations") == []
    # The floor is out of reach until the code is given.
    page.goto("/")
    assert "/accounts/otp/enrol/" in page.url
    device = TOTPDevice.objects.get(user=auditor, confirmed=False)
    assert page.get_by_test_id("otp-key").inner_text().replace(" ", "")
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    page.fill("#id_code", f"{totp.token():06d}")
    page.click("button[type=submit].btn-primary")
    page.wait_for_url("**/")
    assert "/accounts/otp/" not in page.url
    assert page.evaluate("window.__cspViolations") == []
    device.refresh_from_db()
    assert device.confirmed
