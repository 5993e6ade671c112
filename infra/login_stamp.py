"""Who is looking, as the service worker may know it: the login stamp a page carries (its
``X-Viewer`` header, ``config.middleware.LoginStampHeader``) and the score sheet's script sends
with each deal it queued on the phone (``games/views/sheet.py``)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.crypto import salted_hmac


def login_stamp(request: HttpRequest) -> str:
    """Who is looking, as the service worker may know it: a keyed hash of the login (and of
    its password, so a changed password is another viewer), or "public"."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return "public"
    # Asked up to three times a request (the view, the page's context, the header): made once
    # for the login and password it is made of (a view that signs in or changes the password
    # gets a new one).
    made_for = (user.pk, user.password)
    known = request.__dict__.get("_login_stamp")
    if known is not None and known[0] == made_for:
        return known[1]
    made_of = f"{user.pk}:{user.get_session_auth_hash()}"
    stamp = salted_hmac("club.offline-viewer", made_of).hexdigest()[:20]
    request.__dict__["_login_stamp"] = (made_for, stamp)
    return stamp
