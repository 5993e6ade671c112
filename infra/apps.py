from django.apps import AppConfig


class InfraConfig(AppConfig):
    # The plumbing's own label: its two tables are its models, no longer club's (their tables
    # kept their names, so the move wrote nothing in the database: infra/migrations/0001).
    name = "infra"
    label = "infra"
    verbose_name = "Infrastructure"
