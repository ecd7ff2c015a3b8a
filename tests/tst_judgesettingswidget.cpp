// widgets: JudgeSettingsWidget — the judge object read and written back (the keys it
// does not show kept), the engine's validation naming the field, and the test call made
// on a worker thread against a scripted loopback judge and against a closed port.
#include "judgesettingswidget.h"

#include "engine/localchatbackend.h"
#include "judge/judgeclient.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "loopbackserver.h"
#include "testtime.h"

using namespace rwb;
using rwb::widgets::JudgeSettingsWidget;
using rwbtest::ScriptedServer;
using rwbtest::SeenRequest;
using json = nlohmann::json;

namespace {

QJsonObject parsed(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class TestJudgeSettingsWidget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { engine::installLocalChatBackend(); } // as the workbench's main does
    void roundTrip();
    void validation();
    void testCallAnswered();
    void testCallNoServer();
};

void TestJudgeSettingsWidget::roundTrip()
{
    JudgeSettingsWidget w;
    QVERIFY(w.isEmpty());
    QCOMPARE(w.judgeJson(), QString());
    w.setBaseDir("/work/configs");
    w.setJudgeJson(R"({"backend": "http", "url": "http://127.0.0.1:8000/v1", "model": "judge-0.5b",
                       "api_key_env": "JUDGE_KEY", "concurrency": 8, "cache": "judge_cache.sqlite",
                       "temperature": 0, "max_tokens": 512, "price": {"prompt_per_million": 0.15}})");
    QCOMPARE(qobject_cast<QLineEdit *>(w.field("url"))->text(), QString("http://127.0.0.1:8000/v1"));
    QVERIFY(w.field("url")->isVisibleTo(&w));
    QVERIFY(!w.field("folder")->isVisibleTo(&w));
    QCOMPARE(qobject_cast<QSpinBox *>(w.field("concurrency"))->value(), 8);
    QVERIFY(qobject_cast<QCheckBox *>(w.field("cache"))->isChecked());
    QVERIFY(w.problem().isEmpty());
    judge::JudgeOptions o;
    QVERIFY(w.parse(&o));
    QCOMPARE(o.concurrency, 8);
    QCOMPARE(o.server.apiKeyEnv, std::string("JUDGE_KEY"));
    QCOMPARE(o.cachePath, std::string("/work/configs/judge_cache.sqlite")); // relative to the base folder
    QCOMPARE(o.sampling.maxTokens, 512);
    // Written back: the shown keys as edited, the others as read.
    QJsonObject j = parsed(w.judgeJson());
    QCOMPARE(j.value("model").toString(), QString("judge-0.5b"));
    QCOMPARE(j.value("max_tokens").toInt(), 512);
    QCOMPARE(j.value("price").toObject().value("prompt_per_million").toDouble(), 0.15);
    QCOMPARE(j.value("cache").toString(), QString("judge_cache.sqlite"));
    // The cache turned off: no "cache" key; an edit signals, setJudgeJson() does not.
    QSignalSpy edited(&w, &JudgeSettingsWidget::edited);
    qobject_cast<QCheckBox *>(w.field("cache"))->setChecked(false);
    QCOMPARE(edited.count(), 1);
    QVERIFY(!parsed(w.judgeJson()).contains("cache"));
    // The local backend shows the folder instead of the URL and the key.
    w.setJudgeJson(R"({"backend": "local", "folder": "models/judge"})");
    QCOMPARE(edited.count(), 1);
    QVERIFY(w.field("folder")->isVisibleTo(&w));
    QVERIFY(!w.field("url")->isVisibleTo(&w));
    j = parsed(w.judgeJson());
    QCOMPARE(j.value("backend").toString(), QString("local"));
    QCOMPARE(j.value("folder").toString(), QString("models/judge"));
    QVERIFY(!j.contains("url"));
    w.setJudgeJson("");
    QVERIFY(w.isEmpty());
    QCOMPARE(w.judgeJson(), QString());
}

void TestJudgeSettingsWidget::validation()
{
    JudgeSettingsWidget w;
    // The engine's own messages, naming the field; that field is marked.
    w.setJudgeJson(R"({"url": "http://127.0.0.1:8000/v1", "temperature": 7})");
    QVERIFY2(w.problem().startsWith("judge.temperature: must be within"), qPrintable(w.problem()));
    w.setJudgeJson(R"({"backend": "grpc", "url": "http://127.0.0.1:8000/v1"})");
    QVERIFY2(w.problem().contains("\"grpc\" is not a chat backend of this program"), qPrintable(w.problem()));
    w.setJudgeJson(R"({"url": "http://127.0.0.1:8000/v1", "concurrency": 0})");
    QVERIFY2(w.problem().startsWith("judge.concurrency:"), qPrintable(w.problem()));
    QVERIFY(w.field("concurrency")->property("invalid").toBool());
    w.setJudgeJson(R"({"url": "http://127.0.0.1:8000/v1", "timeout": "soon"})");
    QVERIFY2(w.problem().startsWith("judge.timeout: must be a number"), qPrintable(w.problem()));
    // Fixed in the form: the mark goes.
    w.setJudgeJson(R"({"url": "http://127.0.0.1:8000/v1", "concurrency": 0})");
    qobject_cast<QSpinBox *>(w.field("concurrency"))->setValue(3);
    QVERIFY2(w.problem().isEmpty(), qPrintable(w.problem()));
    QVERIFY(!w.field("concurrency")->property("invalid").toBool());
    QVERIFY(w.parse(nullptr));
    // Not JSON at all: said so, and the form is empty.
    w.setJudgeJson("{not json");
    QVERIFY2(w.problem().startsWith("judge: not a JSON object"), qPrintable(w.problem()));
    QVERIFY(w.isEmpty());
    // No URL: "empty", and parse() says what is missing.
    w.setJudgeJson(R"({"model": "m"})");
    QVERIFY(w.isEmpty());
    QString problem;
    QVERIFY(!w.parse(nullptr, &problem));
    QVERIFY2(problem.startsWith("judge.url: missing"), qPrintable(problem));
}

void TestJudgeSettingsWidget::testCallAnswered()
{
    // The server takes 0.3 s: test() returns at once (the GUI thread never waits), the
    // result arrives as a signal.
    ScriptedServer server(
        [](int, const SeenRequest &, httplib::Response &res) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            res.set_content(json{{"model", "judge-served"},
                                 {"choices", json::array({{{"index", 0},
                                                           {"message", {{"role", "assistant"}, {"content", "{\"ok\": true}"}}},
                                                           {"finish_reason", "stop"}}})},
                                 {"usage", {{"prompt_tokens", 30}, {"completion_tokens", 5}}}}
                                .dump(),
                            "application/json");
        },
        false, "/v1/chat/completions");
    JudgeSettingsWidget w;
    w.setJudgeJson(QString::fromStdString(json{{"url", server.url()}, {"model", "judge-0.5b"}}.dump()));
    QSignalSpy done(&w, &JudgeSettingsWidget::testFinished);
    QElapsedTimer t;
    t.start();
    w.test();
    QVERIFY(t.elapsed() < 250);
    QVERIFY(w.isTesting());
    QVERIFY(done.wait(rwbtest::scaledMs(10000)));
    QVERIFY(!w.isTesting());
    QCOMPARE(done.at(0).at(0).toBool(), true);
    const QString message = done.at(0).at(1).toString();
    QVERIFY2(message.contains(QString::fromStdString(server.url())) && message.contains("judge-served") &&
                 message.contains("{\"ok\": true}"),
             qPrintable(message));
    QCOMPARE(w.testResult(), message);
    QCOMPARE(server.requests().size(), size_t(1));
    QCOMPARE(server.requests()[0].body["model"].get<std::string>(), std::string("judge-0.5b"));
}

void TestJudgeSettingsWidget::testCallNoServer()
{
    // Nothing listens: one attempt (no retries in a test), a message naming the URL.
    const std::string url = "http://127.0.0.1:" + std::to_string(rwbtest::closedPort()) + "/v1";
    JudgeSettingsWidget w;
    w.setJudgeJson(QString::fromStdString(json{{"url", url}, {"retries", 4}, {"backoff", 5}}.dump()));
    QSignalSpy done(&w, &JudgeSettingsWidget::testFinished);
    QElapsedTimer t;
    t.start();
    w.test();
    QVERIFY(done.wait(rwbtest::scaledMs(10000)));
    QVERIFY2(t.elapsed() < 4000, qPrintable(QString::number(t.elapsed()))); // no 5 s backoff
    QCOMPARE(done.at(0).at(0).toBool(), false);
    const QString message = done.at(0).at(1).toString();
    QVERIFY2(message.startsWith("The judge at " + QString::fromStdString(url) + " did not answer: "), qPrintable(message));
    // A widget deleted while its test runs: nothing crashes when the thread ends.
    auto *gone = new JudgeSettingsWidget;
    gone->setJudgeJson(QString::fromStdString(json{{"url", url}}.dump()));
    gone->test();
    delete gone;
    QTest::qWait(300);
}

QTEST_MAIN(TestJudgeSettingsWidget)
#include "tst_judgesettingswidget.moc"
