from django.urls import path

from backend.programs import apis

urlpatterns = [
    path("validate", apis.ValidateApi.as_view(), name="validate"),
    path("programs", apis.ProgramListApi.as_view(), name="programs"),
    path("programs/<slug:name>", apis.ProgramDetailApi.as_view(), name="program"),
    path(
        "programs/<slug:name>/versions",
        apis.ProgramVersionListApi.as_view(),
        name="program-versions",
    ),
    path(
        "programs/<slug:name>/versions/<int:version>",
        apis.ProgramVersionDetailApi.as_view(),
        name="program-version",
    ),
]
