// widgets/Workspace: the layout create() makes and open() reads back, settings round
// trip, what models() and datasets() list, the refusals (a non-empty folder that is not a
// workspace, a folder without workspace.json, a runs.sqlite that is not a store), a
// deleted store made again; checkModelFolder on a missing config.json, a bad field, a
// missing tokenizer and a real tiny model; checkDataset naming the bad line.
#include "tinygrpo.h"
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using rwb::widgets::Workspace;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void createAndOpen();
    void listsModelsAndDatasets();
    void refusesWhatIsNotAWorkspace();
    void remakesAMissingStore();
    void checkModelFolder();
    void checkDataset();

private:
    QTemporaryDir m_tiny; // a tiny model made by rwb, for checkModelFolder
};

void TestWorkspace::initTestCase()
{
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_tiny.path(), 20, 2, 1));
}

void TestWorkspace::createAndOpen()
{
    QTemporaryDir tmp;
    const QString dir = tmp.path() + "/ws";
    QString error;
    const auto ws = Workspace::create(dir, &error);
    QVERIFY2(ws, qPrintable(error));
    QCOMPARE(ws->dir(), QFileInfo(dir).absoluteFilePath());
    QCOMPARE(ws->storePath(), dir + "/runs.sqlite");
    QVERIFY(QFileInfo(dir + "/runs.sqlite").isFile());
    QVERIFY(QFileInfo(dir + "/models").isDir());
    QVERIFY(QFileInfo(dir + "/data").isDir());
    QVERIFY(QFileInfo(dir + "/configs").isDir());
    QCOMPARE(ws->name(), QStringLiteral("ws"));
    QVERIFY(!ws->settings().value("created").toString().isEmpty());

    QJsonObject s = ws->settings();
    s.insert("last_model", dir + "/models/tiny");
    QVERIFY2(ws->saveSettings(s, &error), qPrintable(error));

    const auto again = Workspace::open(dir, &error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->settings().value("last_model").toString(), dir + "/models/tiny");
    QCOMPARE(again->settings().value("name").toString(), QStringLiteral("ws"));
    // create() on an existing workspace opens it and keeps its settings.
    const auto third = Workspace::create(dir, &error);
    QVERIFY2(third, qPrintable(error));
    QCOMPARE(third->settings().value("last_model").toString(), dir + "/models/tiny");
}

void TestWorkspace::listsModelsAndDatasets()
{
    QTemporaryDir tmp;
    QString error;
    const auto ws = Workspace::create(tmp.path(), &error); // an empty folder is fine
    QVERIFY2(ws, qPrintable(error));
    QVERIFY(QDir().mkpath(ws->modelsDir() + "/b-model"));
    QVERIFY(QDir().mkpath(ws->modelsDir() + "/a-model"));
    QVERIFY(QDir().mkpath(ws->modelsDir() + "/no-config"));
    QVERIFY(writeFile(ws->modelsDir() + "/a-model/config.json", "{}"));
    QVERIFY(writeFile(ws->modelsDir() + "/b-model/config.json", "{}"));
    QVERIFY(writeFile(ws->dataDir() + "/val.jsonl", ""));
    QVERIFY(writeFile(ws->dataDir() + "/train.jsonl", ""));
    QVERIFY(writeFile(ws->dataDir() + "/notes.txt", ""));
    QCOMPARE(ws->models(), QStringList({ws->modelsDir() + "/a-model", ws->modelsDir() + "/b-model"}));
    QCOMPARE(ws->datasets(), QStringList({ws->dataDir() + "/train.jsonl", ws->dataDir() + "/val.jsonl"}));
}

void TestWorkspace::refusesWhatIsNotAWorkspace()
{
    QTemporaryDir tmp;
    QVERIFY(writeFile(tmp.path() + "/holiday.jpg", "x"));
    QString error;
    QVERIFY(!Workspace::create(tmp.path(), &error));
    QVERIFY2(error.contains(tmp.path()) && error.contains("not empty"), qPrintable(error));
    QVERIFY(!QFileInfo(tmp.path() + "/workspace.json").exists()); // nothing written

    error.clear();
    QVERIFY(!Workspace::open(tmp.path(), &error));
    QVERIFY2(error.contains(tmp.path() + "/workspace.json"), qPrintable(error));

    error.clear();
    QVERIFY(!Workspace::open(tmp.path() + "/nowhere", &error));
    QVERIFY2(error.contains(tmp.path() + "/nowhere"), qPrintable(error));

    // workspace.json that is not an object.
    QTemporaryDir bad;
    QVERIFY(writeFile(bad.path() + "/workspace.json", "[1, 2]"));
    error.clear();
    QVERIFY(!Workspace::open(bad.path(), &error));
    QVERIFY2(error.contains("workspace.json"), qPrintable(error));

    // runs.sqlite that is not a run store.
    QTemporaryDir garbage;
    QVERIFY(writeFile(garbage.path() + "/workspace.json", "{\"name\": \"g\"}"));
    QVERIFY(writeFile(garbage.path() + "/runs.sqlite", "this is not SQLite at all, just text"));
    error.clear();
    QVERIFY(!Workspace::open(garbage.path(), &error));
    QVERIFY2(error.contains(garbage.path() + "/runs.sqlite"), qPrintable(error));
}

void TestWorkspace::remakesAMissingStore()
{
    QTemporaryDir tmp;
    QString error;
    QVERIFY(Workspace::create(tmp.path(), &error));
    QVERIFY(QFile::remove(tmp.path() + "/runs.sqlite"));
    QVERIFY(QDir(tmp.path() + "/configs").removeRecursively());
    const auto ws = Workspace::open(tmp.path(), &error);
    QVERIFY2(ws, qPrintable(error));
    QVERIFY(QFileInfo(tmp.path() + "/runs.sqlite").isFile());
    QVERIFY(QFileInfo(tmp.path() + "/configs").isDir());
}

void TestWorkspace::checkModelFolder()
{
    const QString tiny = m_tiny.path() + "/tiny";
    QCOMPARE(rwb::widgets::checkModelFolder(tiny), QString());

    QTemporaryDir tmp;
    QString m = rwb::widgets::checkModelFolder(tmp.path());
    QVERIFY2(m.contains(tmp.path() + "/config.json") && m.contains("missing"), qPrintable(m));

    // A config.json whose hidden_size is a string: the message names the file and field.
    QVERIFY(writeFile(tmp.path() + "/config.json",
                      R"({"model_type": "qwen3", "vocab_size": 600, "hidden_size": "big", "intermediate_size": 768,
                          "num_hidden_layers": 4, "num_attention_heads": 4})"));
    m = rwb::widgets::checkModelFolder(tmp.path());
    QVERIFY2(m.contains("config.json") && m.contains("hidden_size"), qPrintable(m));

    // The tiny model's config and weights without its tokenizer.
    QVERIFY(QFile::remove(tmp.path() + "/config.json"));
    QVERIFY(QFile::copy(tiny + "/config.json", tmp.path() + "/config.json"));
    m = rwb::widgets::checkModelFolder(tmp.path());
    QVERIFY2(m.contains("no weights"), qPrintable(m));
    QVERIFY(QFile::copy(tiny + "/model.safetensors", tmp.path() + "/model.safetensors"));
    m = rwb::widgets::checkModelFolder(tmp.path());
    QVERIFY2(m.contains("tokenizer.json"), qPrintable(m));
    QVERIFY(QFile::copy(tiny + "/tokenizer.json", tmp.path() + "/tokenizer.json"));
    QCOMPARE(rwb::widgets::checkModelFolder(tmp.path()), QString());
}

void TestWorkspace::checkDataset()
{
    QTemporaryDir tmp;
    const QString path = tmp.path() + "/d.jsonl";
    const QByteArray good = R"({"id": "a", "sender_email": "a@b.jp", "email_text": "株式会社テストです", "gold": "株式会社テスト"})";
    QVERIFY(writeFile(path, good + "\n" + good + "\n{\"id\": \"c\", \"sender_email\": \"x\"}\n" + good + "\n"));
    auto c = rwb::widgets::checkDataset(path);
    QVERIFY(!c.ok);
    QVERIFY2(c.message.startsWith(path + ":3: "), qPrintable(c.message));

    QVERIFY(writeFile(path, good + "\n" + good + "\n" + good + "\n"));
    c = rwb::widgets::checkDataset(path);
    QVERIFY2(c.ok, qPrintable(c.message));
    QCOMPARE(c.records, 3);

    // The synthetic training set of the fixture: 20 lines.
    c = rwb::widgets::checkDataset(m_tiny.path() + "/train.jsonl");
    QVERIFY2(c.ok, qPrintable(c.message));
    QCOMPARE(c.records, 20);

    c = rwb::widgets::checkDataset(tmp.path() + "/missing.jsonl");
    QVERIFY(!c.ok);
    QVERIFY2(c.message.contains(tmp.path() + "/missing.jsonl"), qPrintable(c.message));
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
