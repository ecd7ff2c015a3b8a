#pragma once

#include <QDialog>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <utility>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace rwb::widgets {

// One field of a job's form. `key` is the config key (or option) it edits; the form's
// problems name it ("simulations: must be at least 1") and mark its widget.
struct JobField {
    enum class Kind {
        File,       // an existing file (browse: open)
        SaveFile,   // a file to write (browse: save)
        Folder,     // an existing folder
        SaveFolder, // a folder to write (may not exist yet)
        Int,
        Double,
        Choice,     // one of `choices` (the value is the choice's text)
        Text,
        Check,
    };
    JobField() = default;
    // Brace-initialised in the order of the members below.
    JobField(QString key, Kind kind, QString label, QString toolTip = {}, QVariant value = {}, double minimum = 0,
             double maximum = 1e9, int decimals = 3, QStringList choices = {}, QString filter = {}, bool optional = false)
        : key(std::move(key)), kind(kind), label(std::move(label)), toolTip(std::move(toolTip)), value(std::move(value)),
          minimum(minimum), maximum(maximum), decimals(decimals), choices(std::move(choices)), filter(std::move(filter)),
          optional(optional)
    {
    }
    QString key;
    Kind kind = Kind::Text;
    QString label;
    QString toolTip;
    QVariant value;          // the start value
    double minimum = 0;
    double maximum = 1e9;
    int decimals = 3;        // Double
    QStringList choices;     // Choice
    QString filter;          // File, SaveFile: the file dialog's filter ("Run stores (*.sqlite)")
    bool optional = false;   // a path that may be left empty
};

// A background job's form, laid out as the training form is: groups of labelled fields in
// a scroll area (a form never clips on a small screen), each with its tooltip; below them
// the problems, the `rwb` command the form will run (the CLI writes the same files: "Copy
// command" puts it on the clipboard) and Start, enabled only when nothing is wrong.
//
// Validation runs as the user types (debounced) and on Start. A job checks in three
// layers, each optional: the fields themselves (a path that must exist, a number in its
// range); `setConfigParser`, the engine's own parser of the config the form builds (its
// message's "key: …" marks that field, and the check goes on with that key at its start
// value, as RunSetupForm does); and `setValidator`, anything else ("key: message").
//
// GUI thread only. accept() (Start) only when valid.
class JobForm : public QDialog {
    Q_OBJECT
public:
    JobForm(const QString &title, const QString &intro, QWidget *parent = nullptr);

    // A titled group; the fields added after it go into it.
    void addGroup(const QString &title);
    void addField(const JobField &field);
    // A widget of the job's own in the current group, a whole row (a preview, a note).
    void addWidget(QWidget *widget);
    // Shows or hides a field with its label (e.g. a judge's config when the reference
    // judge is chosen).
    void setFieldVisible(const QString &key, bool visible);

    // Throws data::InputException whose reason starts with "key: " for a bad config.
    using ConfigParser = std::function<void(const QJsonObject &config)>;
    // Builds the config the job writes from the form (by default: every visible field's
    // value under its key, empty optional paths left out).
    using ConfigBuilder = std::function<QJsonObject(const JobForm &form)>;
    // More problems, each "key: message" (or a plain message for the form as a whole).
    using Validator = std::function<QStringList(const JobForm &form)>;
    // The rwb arguments (after "rwb") that run the job; `configPath` is where the config
    // will be written ("" for a job without one).
    using Command = std::function<QStringList(const JobForm &form, const QString &configPath)>;
    void setConfigParser(ConfigParser parser) { m_parser = std::move(parser); }
    void setConfigBuilder(ConfigBuilder builder) { m_builder = std::move(builder); }
    void setValidator(Validator validator) { m_validator = std::move(validator); }
    void setCommand(Command command, const QString &configPath = {});
    QString configPath() const { return m_configPath; }
    void setConfigPath(const QString &path);

    QVariant value(const QString &key) const;
    QString text(const QString &key) const { return value(key).toString(); }
    int integer(const QString &key) const { return value(key).toInt(); }
    double number(const QString &key) const { return value(key).toDouble(); }
    bool checked(const QString &key) const { return value(key).toBool(); }
    void setValue(const QString &key, const QVariant &value);
    // The widget editing `key` (nullptr for an unknown key), for tests and focus.
    QWidget *field(const QString &key) const;
    bool isFieldVisible(const QString &key) const;

    // The config the form builds now (also when invalid).
    QJsonObject config() const;
    // Every problem; true when none. Marks the fields named (property "invalid", red
    // frame, the message as their tooltip) and shows the problems under the form.
    bool validate(QStringList *problems = nullptr);
    QStringList invalidFields() const { return m_invalid; }
    // The command's arguments and its shell-quoted line ("rwb mcts run --config …").
    QStringList arguments() const;
    QString commandLine() const;
    // Writes config() to configPath() (creating its folder); false with *error naming the
    // file when it cannot. A job without a config path writes nothing and succeeds.
    bool writeConfig(QString *error) const;

    QPushButton *startButton() const { return m_start; }

public Q_SLOTS:
    void accept() override;

Q_SIGNALS:
    // After every validation.
    void validated(bool ok);

private:
    struct Entry {
        JobField spec;
        QWidget *editor = nullptr;  // the value's widget
        QWidget *row = nullptr;     // what the form layout holds (editor + browse button)
        QLabel *label = nullptr;
        QFormLayout *layout = nullptr;
    };
    void scheduleValidation();
    void markInvalid(const QStringList &keys, const QStringList &problems);
    QStringList fieldProblems() const;
    void browse(const QString &key);

    QVBoxLayout *m_groups;
    QFormLayout *m_current = nullptr;
    QMap<QString, Entry> m_entries;
    QStringList m_order;
    ConfigParser m_parser;
    ConfigBuilder m_builder;
    Validator m_validator;
    Command m_command;
    QString m_configPath;
    QStringList m_invalid;
    QLabel *m_problems;
    QPlainTextEdit *m_commandView;
    QPushButton *m_copy;
    QPushButton *m_start;
    QTimer *m_debounce;
};

} // namespace rwb::widgets
