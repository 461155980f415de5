app_name = "servicing"

urlpatterns: list = []
