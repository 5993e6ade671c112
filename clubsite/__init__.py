"""The club's own public site: its pages, news, contact, photos and hall of fame — what a club
kept an old hosted site for, beside the nights and rankings the other apps publish."""
