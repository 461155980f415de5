"""Background work of the notices app: thin wrappers around services (tests run them at once)."""

from django_tasks import task

from fogcontrol.notices.services.batches import print_batch_render


@task()
def render_print_batch(*, batch_id: int) -> dict:
    """Lay out a print batch's letters as one PDF, its progress kept on the batch (issue #17, #16)."""
    batch = print_batch_render(batch_id=batch_id)
    return {"status": batch.status, "rendered": batch.rendered, "total": batch.total}
