import time, pytest
from club import bench as ranking_bench
from scoring import stats
pytestmark = pytest.mark.django_db
def t(label, fn):
    fn(); s=time.perf_counter()
    for _ in range(5): fn()
    print(label, round((time.perf_counter()-s)/5*1000,2))
def test_prof():
    _c, seasons, player = ranking_bench.generate(1, print, seasons=1, nights=200, players=40, deals=True)
    season = seasons[0]
    t("all", lambda: stats.season_results(player, season))
    t("chart", lambda: stats._season_chart(player, season))
    t("bw", lambda: stats._belgian_whist_stats(player, season))
