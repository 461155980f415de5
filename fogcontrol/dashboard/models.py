"""The counts kept for the staff home (issue 16; fogcontrol/dashboard/kept.py keeps them)."""

from django.db import models


class FigureCount(models.Model):
    """How many rows a figure counts, by bucket (a day or a month, "" for none). Written only by the
    database's triggers and the recount (kept.py): derived data, never edited."""

    figure = models.CharField(max_length=40)
    bucket = models.CharField(max_length=10, blank=True, default="")
    n = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["figure", "bucket"], name="figure_count_unique")]

    def __str__(self) -> str:
        return f"{self.figure} {self.bucket}: {self.n}"
