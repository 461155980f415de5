app_name = "program"

urlpatterns: list = []
