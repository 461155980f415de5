app_name = "permits"

urlpatterns: list = []
