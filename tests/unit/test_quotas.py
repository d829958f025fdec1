import pytest
from django.test import override_settings

from backend.accounts.services import user_ensure
from backend.core.errors import ApplicationError
from backend.pipelines.services import pipeline_create
from backend.programs.services import program_create

SQL = "CREATE TABLE t (id INT); CREATE VIEW v AS SELECT id FROM t;"


@pytest.mark.django_db
@override_settings(TEAM_MAX_PROGRAMS=2, TEAM_MAX_PIPELINES=1)
def test_a_team_keeps_at_most_its_limit_of_programs_and_pipelines() -> None:
    ada = user_ensure(username="ada", password=None, team="small")
    bob = user_ensure(username="bob", password=None, team="other")
    program_create(user=ada, name="p1", sql=SQL)
    program_create(user=ada, name="p2", sql=SQL)
    with pytest.raises(ApplicationError) as refused:
        program_create(user=ada, name="p3", sql=SQL)
    assert (refused.value.code, refused.value.status) == ("quota_exceeded", 403)
    assert refused.value.details == {"limit": 2}
    program_create(user=bob, name="q1", sql=SQL)  # another team has its own room

    pipeline_create(user=ada, name="run1", program="p1")
    with pytest.raises(ApplicationError, match="reached its limit of 1 pipelines"):
        pipeline_create(user=ada, name="run2", program="p2")
