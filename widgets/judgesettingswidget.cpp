#include "judgesettingswidget.h"

#include "data/jsonl.h"
#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rwb::widgets {

namespace {

// The keys the form edits; every other key of a judge object is kept as read.
const char *const kShownKeys[] = {"backend", "url", "model", "folder", "api_key_env", "concurrency", "cache"};
// JudgeOptions::concurrency's default.
constexpr int kDefaultConcurrency = 4;
// The file a cache turned on without one gets, in the base folder.
const char *const kDefaultCacheFile = "judge_cache.sqlite";

void restyle(QWidget *w)
{
    w->style()->unpolish(w);
    w->style()->polish(w);
    w->update();
}

// A line edit and a "…" button in one row.
QWidget *withBrowse(QLineEdit *edit, QToolButton **button, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    *button = new QToolButton(row);
    (*button)->setText(QStringLiteral("…"));
    h->addWidget(*button);
    return row;
}

} // namespace

JudgeSettingsWidget::JudgeSettingsWidget(QWidget *parent) : QWidget(parent)
{
    build();
    retranslate();
    updateRows();
    validate();
}

JudgeSettingsWidget::~JudgeSettingsWidget() = default;

void JudgeSettingsWidget::build()
{
    setStyleSheet(QStringLiteral("QLineEdit[invalid=\"true\"], QComboBox[invalid=\"true\"], QSpinBox[invalid=\"true\"] {"
                                 " border: 2px solid #d32f2f; background: #fdecea; }"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_backend = new QComboBox(this);
    m_backend->setObjectName(QStringLiteral("backend"));
    m_backend->addItem(QStringLiteral("http"), QStringLiteral("http"));
    m_backend->addItem(QStringLiteral("local"), QStringLiteral("local"));
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000/v1"));
    m_model = new QLineEdit(this);
    m_model->setObjectName(QStringLiteral("model"));
    m_folder = new QLineEdit(this);
    m_folder->setObjectName(QStringLiteral("folder"));
    m_folderRow = withBrowse(m_folder, &m_folderBrowse, this);
    m_apiKeyEnv = new QLineEdit(this);
    m_apiKeyEnv->setObjectName(QStringLiteral("api_key_env"));
    m_apiKeyEnv->setPlaceholderText(QStringLiteral("JUDGE_API_KEY"));
    m_concurrency = new QSpinBox(this);
    m_concurrency->setObjectName(QStringLiteral("concurrency"));
    m_concurrency->setRange(1, 1024);
    m_concurrency->setValue(kDefaultConcurrency);
    m_cache = new QCheckBox(this);
    m_cache->setObjectName(QStringLiteral("cache"));
    m_cachePath = new QLineEdit(this);
    m_cachePath->setObjectName(QStringLiteral("cache_path"));
    m_cachePath->setPlaceholderText(QString::fromLatin1(kDefaultCacheFile));
    m_cacheRow = withBrowse(m_cachePath, &m_cacheBrowse, this);

    m_backendLabel = new QLabel(this);
    m_urlLabel = new QLabel(this);
    m_modelLabel = new QLabel(this);
    m_folderLabel = new QLabel(this);
    m_keyLabel = new QLabel(this);
    m_concurrencyLabel = new QLabel(this);
    m_backendLabel->setBuddy(m_backend);
    m_urlLabel->setBuddy(m_url);
    m_modelLabel->setBuddy(m_model);
    m_folderLabel->setBuddy(m_folder);
    m_keyLabel->setBuddy(m_apiKeyEnv);
    m_concurrencyLabel->setBuddy(m_concurrency);
    m_form->addRow(m_backendLabel, m_backend);
    m_form->addRow(m_urlLabel, m_url);
    m_form->addRow(m_modelLabel, m_model);
    m_form->addRow(m_folderLabel, m_folderRow);
    m_form->addRow(m_keyLabel, m_apiKeyEnv);
    m_form->addRow(m_concurrencyLabel, m_concurrency);
    m_form->addRow(m_cache, m_cacheRow);
    outer->addLayout(m_form);

    auto *testRow = new QHBoxLayout;
    m_test = new QPushButton(this);
    m_test->setObjectName(QStringLiteral("testJudge"));
    testRow->addWidget(m_test);
    testRow->addStretch(1);
    outer->addLayout(testRow);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->hide();
    outer->addWidget(m_result);
    m_problemLabel = new QLabel(this);
    m_problemLabel->setObjectName(QStringLiteral("judgeProblem"));
    m_problemLabel->setWordWrap(true);
    m_problemLabel->setTextFormat(Qt::PlainText);
    m_problemLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problemLabel->hide();
    outer->addWidget(m_problemLabel);

    // A value the form could not show is kept until the user sets that field.
    connect(m_backend, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            m_kept.remove(QStringLiteral("backend"));
        updateRows();
        onEdited();
    });
    for (QLineEdit *e : {m_url, m_model, m_folder, m_apiKeyEnv, m_cachePath})
        connect(e, &QLineEdit::textEdited, this, &JudgeSettingsWidget::onEdited);
    connect(m_concurrency, &QSpinBox::valueChanged, this, [this] {
        if (!m_filling)
            m_kept.remove(QStringLiteral("concurrency"));
        onEdited();
    });
    connect(m_cache, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_cachePath->text().trimmed().isEmpty() && !m_filling)
            m_cachePath->setText(QDir(m_baseDir.isEmpty() ? QDir::currentPath() : m_baseDir)
                                     .filePath(QString::fromLatin1(kDefaultCacheFile)));
        m_cachePath->setEnabled(on);
        m_cacheBrowse->setEnabled(on);
        onEdited();
    });
    connect(m_folderBrowse, &QToolButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("The judge's model folder"), m_folder->text());
        if (!dir.isEmpty()) {
            m_folder->setText(dir);
            onEdited();
        }
    });
    connect(m_cacheBrowse, &QToolButton::clicked, this, [this] {
        const QString file = QFileDialog::getSaveFileName(this, tr("The judge's cache file"), m_cachePath->text(),
                                                          tr("SQLite files (*.sqlite *.db);;All files (*)"), nullptr,
                                                          QFileDialog::DontConfirmOverwrite);
        if (!file.isEmpty()) {
            m_cachePath->setText(file);
            onEdited();
        }
    });
    connect(m_test, &QPushButton::clicked, this, &JudgeSettingsWidget::test);
    m_cachePath->setEnabled(false);
    m_cacheBrowse->setEnabled(false);
}

void JudgeSettingsWidget::retranslate()
{
    m_backendLabel->setText(tr("&Backend:"));
    m_backend->setToolTip(tr("http: an OpenAI-compatible server (vLLM, llama.cpp, rwb serve, a hosted API); "
                             "local: a model folder run in this process"));
    m_urlLabel->setText(tr("&URL:"));
    m_url->setToolTip(tr("The server's base URL; /chat/completions is added"));
    m_modelLabel->setText(tr("&Model:"));
    m_model->setToolTip(tr("The model named in each request (local: the folder's name when empty)"));
    m_folderLabel->setText(tr("&Folder:"));
    m_folder->setToolTip(tr("A model folder (Hugging Face layout) that the local backend runs"));
    m_folderBrowse->setToolTip(tr("Browse…"));
    m_keyLabel->setText(tr("API &key variable:"));
    m_apiKeyEnv->setToolTip(tr("The NAME of the environment variable holding the API key; the key itself is never "
                               "written into a config"));
    m_concurrencyLabel->setText(tr("&Concurrency:"));
    m_concurrency->setToolTip(tr("Judge calls in flight at once"));
    m_cache->setText(tr("C&ache:"));
    m_cache->setToolTip(tr("Keep every reply in a SQLite file: the same request is never sent twice, across "
                           "sessions and runs"));
    m_cachePath->setToolTip(tr("The cache file (SQLite); relative to the config's folder"));
    m_cacheBrowse->setToolTip(tr("Browse…"));
    m_test->setText(tr("&Test the judge"));
    m_test->setToolTip(tr("Send one small request, past the cache, and show what came back"));
    if (!m_resultText.isEmpty())
        m_result->setText(m_resultText);
}

void JudgeSettingsWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void JudgeSettingsWidget::updateRows()
{
    const bool http = m_backend->currentData().toString() == QLatin1String("http");
    m_form->setRowVisible(m_url, http);
    m_form->setRowVisible(m_apiKeyEnv, http);
    m_form->setRowVisible(m_folderRow, !http);
}

QWidget *JudgeSettingsWidget::field(const QString &key) const
{
    const QHash<QString, QWidget *> fields{{QStringLiteral("backend"), m_backend},
                                           {QStringLiteral("url"), m_url},
                                           {QStringLiteral("model"), m_model},
                                           {QStringLiteral("folder"), m_folder},
                                           {QStringLiteral("api_key_env"), m_apiKeyEnv},
                                           {QStringLiteral("concurrency"), m_concurrency},
                                           {QStringLiteral("cache"), m_cache},
                                           {QStringLiteral("cache_path"), m_cachePath}};
    return fields.value(key);
}

void JudgeSettingsWidget::setBaseDir(const QString &dir)
{
    m_baseDir = dir;
    validate();
}

void JudgeSettingsWidget::setJudgeJson(const QString &json)
{
    m_filling = true;
    QJsonObject j;
    QString unreadable;
    if (!json.trimmed().isEmpty()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
        if (doc.isObject())
            j = doc.object();
        else
            unreadable = tr("judge: not a JSON object (%1)").arg(error.errorString());
    }
    const int backend = m_backend->findData(j.value(QStringLiteral("backend")).toString(QStringLiteral("http")));
    m_backend->setCurrentIndex(std::max(0, backend));
    m_url->setText(j.value(QStringLiteral("url")).toString());
    m_model->setText(j.value(QStringLiteral("model")).toString());
    m_folder->setText(j.value(QStringLiteral("folder")).toString());
    m_apiKeyEnv->setText(j.value(QStringLiteral("api_key_env")).toString());
    m_concurrency->setValue(j.value(QStringLiteral("concurrency")).toInt(kDefaultConcurrency));
    const QString cache = j.value(QStringLiteral("cache")).toString();
    m_cache->setChecked(!cache.isEmpty());
    m_cachePath->setText(cache);
    m_kept = j;
    for (const char *key : kShownKeys)
        m_kept.remove(QLatin1String(key));
    // A value the form cannot show (a backend it does not know, a concurrency that is not
    // a number) is kept as read, so that validation names it rather than the form hiding it.
    for (const char *key : {"backend", "concurrency"}) {
        const QJsonValue v = j.value(QLatin1String(key));
        const bool shown = key == QLatin1String("backend") ? backend >= 0 || v.isUndefined()
                                                           : v.isUndefined() || (v.isDouble() && v.toDouble() == v.toInt() &&
                                                                                     v.toInt() >= m_concurrency->minimum() &&
                                                                                     v.toInt() <= m_concurrency->maximum());
        if (!shown)
            m_kept.insert(QLatin1String(key), v);
    }
    m_filling = false;
    updateRows();
    validate();
    if (!unreadable.isEmpty()) {
        m_problem = unreadable;
        m_problemLabel->setText(unreadable);
        m_problemLabel->show();
    }
}

QJsonObject JudgeSettingsWidget::object() const
{
    QJsonObject j;
    const QString backend = m_backend->currentData().toString();
    j.insert(QStringLiteral("backend"), backend);
    const auto put = [&j](const char *key, const QLineEdit *edit) {
        const QString text = edit->text().trimmed();
        if (!text.isEmpty())
            j.insert(QLatin1String(key), text);
    };
    if (backend == QLatin1String("http")) {
        put("url", m_url);
        put("model", m_model);
        put("api_key_env", m_apiKeyEnv);
    } else {
        put("folder", m_folder);
        put("model", m_model);
    }
    j.insert(QStringLiteral("concurrency"), m_concurrency->value());
    if (m_cache->isChecked())
        put("cache", m_cachePath);
    for (auto it = m_kept.begin(); it != m_kept.end(); ++it)
        j.insert(it.key(), it.value()); // a value the form could not show wins, to be named
    return j;
}

bool JudgeSettingsWidget::isEmpty() const
{
    const bool http = m_backend->currentData().toString() == QLatin1String("http");
    return (http ? m_url : m_folder)->text().trimmed().isEmpty();
}

QString JudgeSettingsWidget::judgeJson() const
{
    if (isEmpty())
        return {};
    return QString::fromUtf8(QJsonDocument(object()).toJson(QJsonDocument::Compact));
}

bool JudgeSettingsWidget::parse(judge::JudgeOptions *options, QString *problem) const
{
    if (isEmpty()) {
        if (problem)
            *problem = m_backend->currentData().toString() == QLatin1String("http")
                           ? tr("judge.url: missing: give the judge server's base URL")
                           : tr("judge.folder: missing: give the judge's model folder");
        return false;
    }
    try {
        const judge::JudgeOptions o = judge::parseJudgeOptions(
            QJsonDocument(object()).toJson(QJsonDocument::Compact).toStdString(), "judge", m_baseDir.toStdString());
        if (options)
            *options = o;
        return true;
    } catch (const data::InputException &e) {
        if (problem)
            *problem = QString::fromStdString(e.error().reason);
    } catch (const std::exception &e) {
        if (problem)
            *problem = QString::fromStdString(e.what());
    }
    return false;
}

void JudgeSettingsWidget::validate()
{
    QString problem;
    if (!isEmpty())
        parse(nullptr, &problem);
    m_problem = problem;
    // "judge.url: …" names the field.
    const QString named = problem.startsWith(QLatin1String("judge."))
                              ? problem.mid(6).section(QLatin1Char(':'), 0, 0).section(QLatin1Char('.'), 0, 0)
                              : QString();
    for (const char *key : kShownKeys) {
        QWidget *w = field(QLatin1String(key) == QLatin1String("cache") ? QStringLiteral("cache_path") : QLatin1String(key));
        const bool bad = named == QLatin1String(key);
        if (w && w->property("invalid").toBool() != bad) {
            w->setProperty("invalid", bad);
            restyle(w);
        }
    }
    m_problemLabel->setText(problem);
    m_problemLabel->setVisible(!problem.isEmpty());
    m_test->setEnabled(!m_testing && !isEmpty() && problem.isEmpty());
}

void JudgeSettingsWidget::onEdited()
{
    if (m_filling)
        return;
    validate();
    Q_EMIT edited();
}

QString JudgeSettingsWidget::testResult() const
{
    return m_resultText;
}

void JudgeSettingsWidget::test()
{
    judge::JudgeOptions options;
    QString problem;
    if (m_testing || !parse(&options, &problem))
        return;
    // A test asks once: no retries, no circuit breaker, the cache file untouched.
    options.server.retry.maxRetries = 0;
    options.server.retry.deadlineSeconds = std::min(options.server.retry.deadlineSeconds, options.server.retry.timeoutSeconds);
    options.server.breaker.threshold = 0;
    options.noCache = true;
    const QString where = options.backend == "http" ? QString::fromStdString(options.server.url)
                                                    : QString::fromStdString(options.folder);
    m_testing = true;
    m_test->setEnabled(false);
    m_resultOk = false;
    m_resultText = tr("Asking the judge at %1…").arg(where);
    m_result->setStyleSheet(QString());
    m_result->setText(m_resultText);
    m_result->show();

    // The worker owns a copy of everything; the result comes back when the thread ends,
    // through a connection that dies with this widget.
    auto result = std::make_shared<judge::CheckResult>();
    QThread *thread = QThread::create([options, result] {
        try {
            const judge::JudgeClient client(options); // a local backend loads its model here
            *result = judge::checkJudge(client);
        } catch (const std::exception &e) {
            result->ok = false;
            result->error = e.what();
        }
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    connect(thread, &QThread::finished, this, [this, result, where] {
        m_testing = false;
        if (result->ok)
            showResult(true, tr("The judge at %1 answered in %2 s as the model “%3”: %4")
                                 .arg(where)
                                 .arg(result->seconds, 0, 'f', 2)
                                 .arg(QString::fromStdString(result->model), QString::fromStdString(result->reply).left(80)));
        else
            showResult(false, tr("The judge at %1 did not answer: %2").arg(where, QString::fromStdString(result->error)));
    });
    thread->start();
}

void JudgeSettingsWidget::showResult(bool ok, const QString &message)
{
    m_resultOk = ok;
    m_resultText = message;
    m_result->setStyleSheet(ok ? QStringLiteral("color: #2e7d32;") : QStringLiteral("color: #c62828;"));
    m_result->setText(message);
    m_result->show();
    validate();
    Q_EMIT testFinished(ok, message);
}

} // namespace rwb::widgets
