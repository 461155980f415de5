app_name = "imports"

urlpatterns: list = []
