"""What a club page's management posts: a Django form over the page's written fields; the
checks that need the club (its addresses, its other pages) are ``clubsite.pages``'s."""

from __future__ import annotations

from django import forms

from .models import Page


class PageForm(forms.ModelForm):
    class Meta:
        model = Page
        fields = ["title", "slug", "language", "members_only", "position", "text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 18, "class": "markdown-text"})}
