#pragma once

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace rwb::judge {
struct JudgeOptions;
}

namespace rwb::widgets {

// The settings of an LLM judge — a reward config's "judge" object (docs/judges.md) — as a
// form: the backend (http or local), the server's URL and model, the model folder (local),
// the NAME of the environment variable that holds the API key (never the key itself), the
// calls in flight at once, and the persistent cache (on or off, and its file). Keys the
// form does not show (temperature, max_tokens, timeouts, prices, …) are kept as they were
// read. The Reward Designer and the training setup form each hold one.
//
// Validation is core's own (judge::parseJudgeOptions): its message shows under the form
// and the field it names is marked. "Test" sends one small request (judge::checkJudge,
// no retries, past the cache) on a worker thread and shows what came back, or the error
// naming the URL; the form never waits for it. A widget destroyed during a test leaves
// the thread to finish on its own (it then deletes itself; the result goes nowhere).
// GUI thread only.
class JudgeSettingsWidget : public QWidget {
    Q_OBJECT
public:
    explicit JudgeSettingsWidget(QWidget *parent = nullptr);
    ~JudgeSettingsWidget() override;

    // Fills the form from a judge object's JSON text ("" clears it). Text that is not a
    // JSON object clears the form and shows why. Emits nothing.
    void setJudgeJson(const QString &json);
    // The form as a judge object's compact JSON text (the keys it shows, then the kept
    // ones); "" when neither a URL nor a folder is given (no judge).
    QString judgeJson() const;
    // The folder relative paths (cache, folder) resolve against ("" = the current folder).
    void setBaseDir(const QString &dir);
    QString baseDir() const { return m_baseDir; }

    // True when no judge is given (judgeJson() is "").
    bool isEmpty() const;
    // The settings as the engine reads them; false with `problem` ("judge.url: missing: …")
    // when they are not valid or empty.
    bool parse(rwb::judge::JudgeOptions *options, QString *problem = nullptr) const;
    // The last validation's message ("" when valid or empty).
    QString problem() const { return m_problem; }

    bool isTesting() const { return m_testing; }
    // The test's result line ("" before the first test).
    QString testResult() const;

    // The editors, for tests: "backend", "url", "model", "folder", "api_key_env",
    // "concurrency", "cache" (the check box), "cache_path"; null for another name.
    QWidget *field(const QString &key) const;

public Q_SLOTS:
    // Sends the test request (nothing when the settings are invalid, or a test runs).
    void test();

Q_SIGNALS:
    // Every edit by the user (not setJudgeJson()).
    void edited();
    // The test's outcome: ok, and a line saying what came back or what failed.
    void testFinished(bool ok, const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void build();
    void retranslate();
    void updateRows();
    void validate();
    void onEdited();
    void showResult(bool ok, const QString &message);
    QJsonObject object() const;

    QFormLayout *m_form = nullptr;
    QLabel *m_backendLabel = nullptr, *m_urlLabel = nullptr, *m_modelLabel = nullptr, *m_folderLabel = nullptr,
           *m_keyLabel = nullptr, *m_concurrencyLabel = nullptr;
    QComboBox *m_backend = nullptr;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_folder = nullptr;
    QToolButton *m_folderBrowse = nullptr;
    QWidget *m_folderRow = nullptr;
    QLineEdit *m_apiKeyEnv = nullptr;
    QSpinBox *m_concurrency = nullptr;
    QCheckBox *m_cache = nullptr;
    QLineEdit *m_cachePath = nullptr;
    QToolButton *m_cacheBrowse = nullptr;
    QWidget *m_cacheRow = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_result = nullptr;
    QLabel *m_problemLabel = nullptr;

    QJsonObject m_kept; // the read object's keys the form does not show
    QString m_baseDir;
    QString m_problem;
    bool m_filling = false;
    bool m_testing = false;
    bool m_resultOk = false;
    QString m_resultText;
};

} // namespace rwb::widgets
