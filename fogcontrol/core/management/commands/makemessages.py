"""Django's makemessages, also gathering the rules' ``say("…")`` templates (rules/explain.py): the
rules are plain Python and mark their sentences with ``say``, not gettext (issue 18)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=say"]
