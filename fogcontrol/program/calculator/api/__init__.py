"""The rules API: deadlines, service frequency and penalty caps for any signed-in user."""
