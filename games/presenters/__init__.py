"""Presenters: what a page, an export or an API answer shows, built once as plain data.

A view fetches the objects, checks the visitor's role, asks one presenter and renders what it
gets back. A presenter never sees the request: who may see what is the view's decision, passed
in as plain flags (``public`` names, say). So the score sheet, the results page, the history of
corrections, the exports and the API number and describe a deal the same way: here.
"""
