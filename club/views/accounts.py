"""Accounts: a club admin invites a player; the member claims him with a password."""

from django.http import Http404


def members(request, slug):  # TODO: being built for issue 5
    raise Http404


def invite(request, slug, pk):  # TODO: being built for issue 5
    raise Http404


def invitation_accept(request, token):  # TODO: being built for issue 5
    raise Http404
