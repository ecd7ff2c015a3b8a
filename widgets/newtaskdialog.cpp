#include "newtaskdialog.h"

#include "linenumberededit.h"

#include "data/jsonl.h"
#include "task/catalog.h"
#include "tasks/user/taskdraft.h"
#include "tasks/user/taskdescription.h"
#include "tasks/user/usertask.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/boundedjson.h"
#include "util/jsoncomments.h"

#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace {

// A guess of the draft (tasks/user/taskdraft.h), translated by its key; a key this
// table does not know shows core's English line.
QString noteText(const rwb::task::TaskDraft::Note &n)
{
    const auto arg = [&](size_t i) { return i < n.args.size() ? QString::fromStdString(n.args[i]) : QString(); };
    if (n.key == "records.verl")
        return QCoreApplication::translate("NewTaskDialog", "Records: verl's (a \"reward_model\" column); the reference is reward_model.ground_truth.");
    if (n.key == "records.trl")
        return QCoreApplication::translate("NewTaskDialog", "Records: TRL's (a \"prompt\" column).");
    if (n.key == "records.openrlhf")
        return QCoreApplication::translate("NewTaskDialog", "Records: OpenRLHF's (an \"input\" column).");
    if (n.key == "records.prompt_guessed")
        return QCoreApplication::translate("NewTaskDialog", "Records: no prompt column TRL, verl or OpenRLHF would read; the prompt is guessed to be \"%1\" (the first text column): check it.").arg(arg(0));
    if (n.key == "reference.guessed")
        return QCoreApplication::translate("NewTaskDialog", "Reference: guessed to be \"%1\"; check it.").arg(arg(0));
    if (n.key == "answer.numeric")
        return QCoreApplication::translate("NewTaskDialog", "Answer: every reference is a number, so the answer is the reply's last \\boxed{}, compared as a number.");
    if (n.key == "answer.json")
        return QCoreApplication::translate("NewTaskDialog", "Answer: every reference is a JSON object, so the reply's object is compared field by field.");
    if (n.key == "answer.text")
        return QCoreApplication::translate("NewTaskDialog", "Answer: the references are text, so the whole reply is compared with the reference (exact_match).");
    return QString::fromStdString(n.text);
}

// How long the preview waits after the last edit of the description.
constexpr int kDebounceMs = 300;
// Records read from the data file at each check: those `rwb task init` drafts from.
constexpr int kCheckedRecords = 50;
// The most records the preview shows.
constexpr int kMaxShown = 20;
// A name's longest (the description's rule).
constexpr int kMaxNameLength = 64;

// The description's rule for a task's name: lower-case letters, digits and "_", starting
// with a letter.
bool isTaskName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[a-z][a-z0-9_]*$"));
    return name.size() <= kMaxNameLength && re.match(name).hasMatch();
}

// A name guessed from a data file's name: "Invoice-Totals.v2.jsonl" → "invoice_totals_v2".
QString guessName(const QString &path)
{
    const QString base = QFileInfo(path).completeBaseName().toLower();
    QString out;
    for (const QChar c : base) {
        const bool letter = c >= QLatin1Char('a') && c <= QLatin1Char('z');
        const bool digit = c >= QLatin1Char('0') && c <= QLatin1Char('9');
        if (out.isEmpty() && !letter)
            continue; // a name starts with a letter
        if (letter || digit)
            out += c;
        else if (!out.endsWith(QLatin1Char('_')))
            out += QLatin1Char('_');
    }
    while (out.endsWith(QLatin1Char('_')))
        out.chop(1);
    out.truncate(kMaxNameLength);
    return out.isEmpty() ? QStringLiteral("my_task") : out;
}

// Line and column (1-based) of a byte offset of UTF-8 text.
std::pair<size_t, size_t> lineColumn(const std::string &text, size_t byte)
{
    size_t line = 1;
    size_t col = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++col;
        }
    }
    return {line, col};
}

QString jsonQuoted(const QString &s)
{
    return QString::fromStdString(nlohmann::json(s.toStdString()).dump());
}

// Text for the preview's HTML: escaped, its line breaks kept and long lines wrapped.
QString block(const QString &text, const QString &fixedFamily)
{
    return QStringLiteral("<table width=\"100%\" cellpadding=\"6\" cellspacing=\"0\" bgcolor=\"#f3f4f6\"><tr><td>"
                          "<p style=\"white-space:pre-wrap; font-family:'%1';\">%2</p></td></tr></table>")
        .arg(fixedFamily, text.toHtmlEscaped());
}

} // namespace

NewTaskDialog::NewTaskDialog(const QString &outputDir, QWidget *parent)
    : QDialog(parent)
    , m_outputDir(outputDir)
    , m_dataLabel(new QLabel(this))
    , m_dataEdit(new QLineEdit(this))
    , m_dataBrowse(new QPushButton(this))
    , m_nameLabel(new QLabel(this))
    , m_nameEdit(new QLineEdit(this))
    , m_nameHint(new QLabel(this))
    , m_modelLabel(new QLabel(this))
    , m_modelEdit(new QLineEdit(this))
    , m_modelBrowse(new QPushButton(this))
    , m_formatLabel(new QLabel(this))
    , m_destinationLabel(new QLabel(this))
    , m_destination(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_descriptionTitle(new QLabel)
    , m_description(new LineNumberedEdit)
    , m_draftAgain(new QPushButton)
    , m_notesTitle(new QLabel)
    , m_notesView(new QLabel)
    , m_previewTitle(new QLabel)
    , m_countLabel(new QLabel)
    , m_count(new QSpinBox)
    , m_readStatus(new QLabel)
    , m_preview(new QTextBrowser)
    , m_problem(new QLabel(this))
    , m_create(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("newTaskDialog"));
    setSizeGripEnabled(true);

    // The data file, the name, the model folder and where Create writes.
    m_dataEdit->setObjectName(QStringLiteral("dataEdit"));
    m_nameEdit->setObjectName(QStringLiteral("nameEdit"));
    m_nameEdit->setMaxLength(kMaxNameLength);
    m_modelEdit->setObjectName(QStringLiteral("modelEdit"));
    m_modelEdit->setClearButtonEnabled(true);
    m_nameHint->setForegroundRole(QPalette::PlaceholderText);
    m_formatLabel->setWordWrap(true);
    m_destination->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_destination->setWordWrap(true);
    auto *form = new QGridLayout;
    form->setColumnStretch(1, 1);
    form->addWidget(m_dataLabel, 0, 0);
    form->addWidget(m_dataEdit, 0, 1);
    form->addWidget(m_dataBrowse, 0, 2);
    form->addWidget(m_nameLabel, 1, 0);
    auto *nameRow = new QHBoxLayout;
    nameRow->addWidget(m_nameEdit, 1);
    nameRow->addWidget(m_nameHint, 2);
    form->addLayout(nameRow, 1, 1, 1, 2);
    form->addWidget(m_modelLabel, 2, 0);
    form->addWidget(m_modelEdit, 2, 1);
    form->addWidget(m_modelBrowse, 2, 2);
    form->addWidget(m_formatLabel, 3, 1, 1, 2);
    form->addWidget(m_destinationLabel, 4, 0);
    form->addWidget(m_destination, 4, 1, 1, 2);

    // Left: the description and the draft's notes.
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_description->setObjectName(QStringLiteral("descriptionEdit"));
    m_description->setFont(fixed);
    m_description->setTabChangesFocus(true);
    m_notesView->setObjectName(QStringLiteral("draftNotes"));
    m_notesView->setWordWrap(true);
    m_notesView->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *leftTitle = new QHBoxLayout;
    leftTitle->addWidget(m_descriptionTitle, 1);
    leftTitle->addWidget(m_draftAgain);
    leftLayout->addLayout(leftTitle);
    leftLayout->addWidget(m_description, 1);
    leftLayout->addWidget(m_notesTitle);
    leftLayout->addWidget(m_notesView);

    // Right: the first records as the model will see them.
    m_count->setObjectName(QStringLiteral("recordCount"));
    m_count->setRange(1, kMaxShown);
    m_count->setValue(3);
    m_readStatus->setForegroundRole(QPalette::PlaceholderText);
    m_readStatus->setWordWrap(true);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setOpenLinks(false);
    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *rightTitle = new QHBoxLayout;
    rightTitle->addWidget(m_previewTitle, 1);
    rightTitle->addWidget(m_countLabel);
    rightTitle->addWidget(m_count);
    rightLayout->addLayout(rightTitle);
    rightLayout->addWidget(m_readStatus);
    rightLayout->addWidget(m_preview, 1);

    m_splitter->setObjectName(QStringLiteral("newTaskSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({560, 520});

    // What stops Create, and the buttons.
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_create->setObjectName(QStringLiteral("createButton"));
    // Return in a field takes its value and presses nothing: no button is the default
    // (a dialog's buttons are auto-default otherwise, and Return would press the first).
    for (QPushButton *b : {m_dataBrowse, m_modelBrowse, m_draftAgain, m_create, m_cancel})
        b->setAutoDefault(false);
    // Not a QDialogButtonBox: it makes its accept button the default when shown.
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_problem, 1);
    bottom->addWidget(m_create, 0, Qt::AlignBottom);
    bottom->addWidget(m_cancel, 0, Qt::AlignBottom);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_splitter, 1);
    layout->addLayout(bottom);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &NewTaskDialog::refresh);
    connect(m_dataBrowse, &QPushButton::clicked, this, &NewTaskDialog::browseData);
    connect(m_dataEdit, &QLineEdit::editingFinished, this, [this] {
        if (m_dataEdit->text() != m_appliedData)
            setDataFile(m_dataEdit->text());
    });
    connect(m_nameEdit, &QLineEdit::textEdited, this, &NewTaskDialog::onNameEdited);
    connect(m_modelBrowse, &QPushButton::clicked, this, &NewTaskDialog::browseModel);
    connect(m_modelEdit, &QLineEdit::editingFinished, this, [this] {
        if (m_modelEdit->text() != m_appliedModel)
            setModelFolder(m_modelEdit->text());
    });
    connect(m_description, &QPlainTextEdit::textChanged, this, &NewTaskDialog::onDescriptionEdited);
    connect(m_draftAgain, &QPushButton::clicked, this, &NewTaskDialog::draftAgain);
    connect(m_count, &QSpinBox::valueChanged, this, &NewTaskDialog::refresh);
    connect(m_create, &QPushButton::clicked, this, &NewTaskDialog::create);
    connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);

    retranslate();
    resize(1180, 720);
}

NewTaskDialog::~NewTaskDialog() = default;

void NewTaskDialog::retranslate()
{
    setWindowTitle(tr("New task from data"));
    m_dataLabel->setText(tr("Data file:"));
    m_dataEdit->setPlaceholderText(tr("your records, one JSON object a line (JSONL)"));
    m_dataBrowse->setText(tr("Browse…"));
    m_nameLabel->setText(tr("Task name:"));
    m_nameHint->setText(tr("lower-case letters, digits and \"_\", starting with a letter"));
    m_modelLabel->setText(tr("Model folder:"));
    m_modelEdit->setPlaceholderText(tr("optional: the preview then uses the model's prompt format"));
    m_modelBrowse->setText(tr("Browse…"));
    m_destinationLabel->setText(tr("Creates:"));
    m_descriptionTitle->setText(tr("<b>Task description</b> (JSON; // comments are kept)"));
    m_draftAgain->setText(tr("Draft again"));
    m_draftAgain->setToolTip(tr("A new draft guessed from the data file, replacing the text"));
    m_notesTitle->setText(tr("<b>The draft's guesses</b>"));
    m_previewTitle->setText(tr("<b>Preview</b>: the first records as the model will see them"));
    m_countLabel->setText(tr("Records:"));
    m_create->setText(tr("Create"));
    m_cancel->setText(tr("Cancel"));
    updateDestination();
    showNotes();
    showFormat();
    refresh();
}

void NewTaskDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

void NewTaskDialog::reject()
{
    // Edits to the description are the user's work: closing without creating asks first.
    if (m_edited && !m_description->toPlainText().trimmed().isEmpty() &&
        !confirm(tr("New task from data"), tr("Close without creating the task? Your edits to the description are lost.")))
        return;
    QDialog::reject();
}

void NewTaskDialog::setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler)
{
    m_confirm = std::move(handler);
}

bool NewTaskDialog::confirm(const QString &title, const QString &text)
{
    if (m_confirm)
        return m_confirm(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::No, QMessageBox::No) ==
           QMessageBox::Yes;
}

QString NewTaskDialog::dataFile() const
{
    return m_appliedData;
}

QString NewTaskDialog::taskName() const
{
    return m_nameEdit->text();
}

QString NewTaskDialog::modelFolder() const
{
    return m_appliedModel;
}

QString NewTaskDialog::descriptionText() const
{
    return m_description->toPlainText();
}

void NewTaskDialog::setDescriptionText(const QString &text)
{
    m_description->setPlainText(text); // an edit: textChanged marks it and schedules the preview
}

QString NewTaskDialog::outputDir() const
{
    if (!m_outputDir.isEmpty())
        return QDir(m_outputDir).absolutePath();
    return m_appliedData.isEmpty() ? QString() : QFileInfo(m_appliedData).absolutePath();
}

QString NewTaskDialog::taskPath() const
{
    const QString dir = outputDir();
    return dir.isEmpty() || taskName().isEmpty() ? QString() : QDir(dir).filePath(taskName() + QStringLiteral(".task.json"));
}

QString NewTaskDialog::rewardConfigPath() const
{
    const QString dir = outputDir();
    return dir.isEmpty() || taskName().isEmpty() ? QString()
                                                  : QDir(dir).filePath(taskName() + QStringLiteral(".reward.json"));
}

void NewTaskDialog::setDataFile(const QString &path)
{
    m_appliedData = path.trimmed();
    if (m_dataEdit->text() != m_appliedData)
        m_dataEdit->setText(m_appliedData);
    if (!m_nameChosen && !m_appliedData.isEmpty()) {
        const QString name = guessName(m_appliedData);
        m_nameEdit->setText(name);
        renameInText(name);
    }
    // The user's edits stay: "Draft again" replaces them, after asking.
    m_draftError.clear();
    if (!m_edited || m_description->toPlainText().trimmed().isEmpty())
        draft();
    updateDestination();
    refresh();
}

void NewTaskDialog::setTaskName(const QString &name)
{
    m_nameEdit->setText(name);
    onNameEdited(name);
}

void NewTaskDialog::onNameEdited(const QString &name)
{
    m_nameChosen = true;
    renameInText(name);
    updateDestination();
    m_debounce->start();
}

void NewTaskDialog::renameInText(const QString &name)
{
    if (name == m_textName)
        return;
    // The description's own "name" value, as this dialog last wrote it; a name the user
    // changed in the text is theirs (a mismatch is reported, not overwritten).
    const QString text = m_description->toPlainText();
    const QRegularExpression re(QStringLiteral("\"name\"\\s*:\\s*(") +
                                QRegularExpression::escape(jsonQuoted(m_textName)) + QLatin1Char(')'));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return;
    QTextCursor cursor(m_description->document());
    cursor.setPosition(static_cast<int>(m.capturedStart(1)));
    cursor.setPosition(static_cast<int>(m.capturedEnd(1)), QTextCursor::KeepAnchor);
    m_settingText = true;
    cursor.insertText(jsonQuoted(name)); // one undo step
    m_settingText = false;
    m_textName = name;
}

void NewTaskDialog::setModelFolder(const QString &dir)
{
    m_appliedModel = dir.trimmed();
    if (m_modelEdit->text() != m_appliedModel)
        m_modelEdit->setText(m_appliedModel);
    loadModelFormat();
    refresh();
}

void NewTaskDialog::loadModelFormat()
{
    m_format.reset();
    m_modelError.clear();
    if (!m_appliedModel.isEmpty()) {
        try {
            const std::string dir = m_appliedModel.toStdString();
            const auto tokenizer = rwb::tokenizer::loadTokenizer(dir);
            m_format = std::make_unique<rwb::tokenizer::PromptFormat>(rwb::tokenizer::PromptFormat::forModel(dir, *tokenizer));
        } catch (const std::exception &e) {
            m_modelError = QString::fromStdString(e.what());
        }
    }
    showFormat();
}

void NewTaskDialog::showFormat()
{
    if (!m_modelError.isEmpty()) {
        m_formatLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_formatLabel->setText(tr("The model folder does not load (%1); the preview uses the plain prompt format.")
                                   .arg(m_modelError));
    } else {
        m_formatLabel->setStyleSheet(QString());
        m_formatLabel->setForegroundRole(QPalette::PlaceholderText);
        if (!m_format)
            m_formatLabel->setText(tr("Prompt format: plain (no model folder)"));
        else if (m_format->kind() == rwb::tokenizer::PromptFormat::Kind::ChatMl)
            m_formatLabel->setText(m_format->qwen3NoThinking() ? tr("Prompt format: ChatML, Qwen3 without thinking (the model folder's)")
                                                               : tr("Prompt format: ChatML (the model folder's)"));
        else
            m_formatLabel->setText(tr("Prompt format: plain (the model folder's)"));
    }
}

void NewTaskDialog::browseData()
{
    const QString start = m_appliedData.isEmpty() ? m_outputDir : QFileInfo(m_appliedData).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose the data file"), start,
                                                      tr("JSON lines (*.jsonl);;All files (*)"));
    if (!path.isEmpty())
        setDataFile(path);
}

void NewTaskDialog::browseModel()
{
    const QString start = m_appliedModel.isEmpty() ? m_outputDir : m_appliedModel;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose a model folder"), start);
    if (!dir.isEmpty())
        setModelFolder(dir);
}

void NewTaskDialog::onDescriptionEdited()
{
    if (m_settingText)
        return;
    m_edited = true;
    m_debounce->start();
}

void NewTaskDialog::draftAgain()
{
    if (m_appliedData.isEmpty())
        return;
    if (m_edited && !m_description->toPlainText().trimmed().isEmpty() &&
        !confirm(tr("Draft again"), tr("Replace your edits to the description with a new draft from %1?")
                                        .arg(QFileInfo(m_appliedData).fileName())))
        return;
    draft();
    refresh();
}

void NewTaskDialog::draft()
{
    m_draftError.clear();
    try {
        const rwb::task::TaskDraft d =
            rwb::task::draftTaskDescription(m_appliedData.toStdString(), taskName().toStdString());
        m_notes.clear();
        for (const rwb::task::TaskDraft::Note &n : d.notes)
            m_notes << noteText(n);
        m_settingText = true;
        m_description->setPlainText(QString::fromStdString(d.description));
        m_settingText = false;
        m_textName = taskName();
        m_edited = false;
    } catch (const std::exception &e) {
        // The text stays as it was; the problem line says why.
        m_draftError = QString::fromStdString(e.what());
        m_notes.clear();
    }
    showNotes();
}

void NewTaskDialog::showNotes()
{
    QString html;
    for (const QString &n : m_notes)
        html += QStringLiteral("<li>%1</li>").arg(n.toHtmlEscaped());
    m_notesView->setText(html.isEmpty() ? tr("None yet: choose a data file.")
                                        : QStringLiteral("<ul style=\"margin-left:-20px\">%1</ul>").arg(html));
    m_notesTitle->setVisible(true);
}

void NewTaskDialog::updateDestination()
{
    const QString task = taskPath();
    if (task.isEmpty()) {
        m_destination->setText(tr("(choose a data file and a name)"));
        return;
    }
    m_destination->setText(tr("%1 and %2, in %3")
                               .arg(QFileInfo(task).fileName(), QFileInfo(rewardConfigPath()).fileName(),
                                    QDir::toNativeSeparators(outputDir())));
}

void NewTaskDialog::setProblem(const QString &text, bool hint)
{
    m_problem->setText(text);
    m_problem->setStyleSheet(text.isEmpty() || hint ? QString() : QStringLiteral("color: #c62828;"));
}

bool NewTaskDialog::canCreate() const
{
    return m_create->isEnabled();
}

QString NewTaskDialog::problem() const
{
    return m_problem->text();
}

void NewTaskDialog::refresh()
{
    m_debounce->stop();
    m_rewardConfig.clear();
    m_description->setMarkedLine(0);
    m_readRecords = 0;
    m_readAll = false;
    const auto block_ = [this](const QString &problem, bool hint = false) {
        setProblem(problem, hint);
        m_readStatus->clear();
        m_create->setEnabled(false);
        m_preview->setEnabled(false); // the last preview stays, greyed, until the problem is fixed
    };
    if (m_appliedData.isEmpty()) {
        m_preview->clear();
        block_(tr("Choose a data file: your records, one JSON object a line (JSONL)."), /*hint=*/true);
        return;
    }
    if (!m_draftError.isEmpty()) {
        block_(tr("The data file does not read: %1").arg(m_draftError));
        return;
    }
    const QString name = taskName();
    if (!isTaskName(name)) {
        if (name.isEmpty())
            block_(tr("Give the task a name: lower-case letters, digits and \"_\", starting with a letter."), /*hint=*/true);
        else
            block_(tr("The name \"%1\" is not lower-case letters, digits and \"_\" starting with a letter.").arg(name));
        return;
    }

    // The description: JSON first (so that a syntax error names its line), then its fields.
    const QString source = QFileInfo(taskPath()).fileName();
    const std::string text = rwb::util::withoutJsonComments(m_description->toPlainText().toStdString());
    std::unique_ptr<rwb::task::UserTask> task;
    try {
        try {
            rwb::util::parseJson(text);
        } catch (const nlohmann::json::parse_error &e) {
            const auto [line, col] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
            m_description->setMarkedLine(static_cast<int>(line));
            throw rwb::data::InputException(
                {source.toStdString(), line, "column " + std::to_string(col) + ": not valid JSON"});
        }
        rwb::task::TaskDescription d = rwb::task::parseTaskDescription(text, source.toStdString(), outputDir().toStdString());
        if (QString::fromStdString(d.name) != name) {
            block_(tr("The description's \"name\" is \"%1\", the task's name \"%2\": make them the same.")
                       .arg(QString::fromStdString(d.name), name));
            return;
        }
        const rwb::task::Task *known = rwb::task::Catalog::builtin().find(d.name);
        if (known && !dynamic_cast<const rwb::task::UserTask *>(known)) {
            block_(tr("\"%1\" is the name of a built-in task: give yours another.").arg(name));
            return;
        }
        task = std::make_unique<rwb::task::UserTask>(std::move(d));
    } catch (const std::exception &e) {
        block_(tr("The description does not read: %1").arg(QString::fromStdString(e.what())));
        return;
    }

    // The first records, read with the description; the first `shown` rendered.
    const rwb::tokenizer::PromptFormat plain;
    const rwb::tokenizer::PromptFormat &format = m_format ? *m_format : plain;
    const QString fixedFamily = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    const int shown = m_count->value();
    const std::string dataName = QFileInfo(m_appliedData).fileName().toStdString();
    QString html;
    QString recordProblem;
    std::ifstream in(m_appliedData.toStdString(), std::ios::binary);
    if (!in) {
        block_(tr("The data file does not read: %1").arg(QString::fromStdString(dataName + ": cannot be read")));
        return;
    }
    std::string line;
    size_t lineNo = 0;
    m_readAll = true;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r\n") == std::string::npos)
            continue;
        if (m_readRecords == kCheckedRecords) {
            m_readAll = false;
            break;
        }
        try {
            const rwb::task::Record r = task->readLine(line, dataName, lineNo, /*requireCompletion=*/false);
            ++m_readRecords;
            if (m_readRecords > shown)
                continue;
            const rwb::task::Example &e = *r.example;
            const QString sft = QString::fromStdString(task->sftTarget(e, /*thinking=*/false));
            const std::optional<std::string> answer = task->extract(sft.toStdString());
            html += QStringLiteral("<h3>%1</h3>")
                        .arg(tr("Record %1 · line %2").arg(QString::fromStdString(e.id()).toHtmlEscaped()).arg(lineNo));
            html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Prompt")) +
                    block(QString::fromStdString(task->prompt(e, format, /*thinking=*/false)), fixedFamily);
            html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Reference")) + block(QString::fromStdString(e.goldText()), fixedFamily);
            html += QStringLiteral("<p><b>%1</b></p>").arg(tr("SFT target")) + block(sft, fixedFamily);
            if (answer)
                html += QStringLiteral("<p>%1 <code>%2</code></p>")
                            .arg(tr("The answer the description's extractor finds in it:"),
                                 QString::fromStdString(*answer).toHtmlEscaped());
            else
                html += QStringLiteral("<p style=\"color:#8a5a00\">%1</p>")
                            .arg(tr("The description's extractor finds no answer in it: a model trained on these "
                                    "targets would give none either."));
        } catch (const std::exception &e) {
            recordProblem = QString::fromStdString(e.what());
            m_readAll = false;
            if (m_readRecords < shown)
                html += QStringLiteral("<p style=\"color:#c62828\"><b>%1</b></p>").arg(recordProblem.toHtmlEscaped());
            break;
        }
    }
    if (m_readRecords == 0 && recordProblem.isEmpty()) {
        m_preview->clear();
        block_(tr("The data file does not read: %1").arg(QString::fromStdString(dataName + ": no record")));
        return;
    }

    // Only the document changes: the user's place in the preview stays.
    const int scroll = m_preview->verticalScrollBar()->value();
    m_preview->setHtml(html);
    m_preview->verticalScrollBar()->setValue(scroll);
    m_preview->setEnabled(true);
    if (!recordProblem.isEmpty()) {
        block_(tr("A record does not read: %1").arg(recordProblem));
        m_readStatus->setText(tr("Line %1 of the data file does not read.").arg(lineNo));
        m_preview->setEnabled(true); // what did read, and the message
        return;
    }
    m_readStatus->setText(m_readAll ? tr("All %n record(s) of the file read with this description.", nullptr, m_readRecords)
                                    : tr("The first %n records read with this description (rwb task check reads them all).",
                                         nullptr, m_readRecords));

    // The starter reward config: one component per metric, weight 1.
    nlohmann::ordered_json config;
    const rwb::task::TaskDescription &d = task->taskDescription();
    config["name"] = d.name;
    config["description"] = "A starter reward config for the task " + d.name +
                            ": one component per metric of its description, each with weight 1.";
    config["task"] = d.name + ".task.json";
    config["components"] = nlohmann::ordered_json::array();
    for (const rwb::task::TaskMetric &m : d.metrics) {
        nlohmann::ordered_json c;
        c["reward"] = m.reward;
        c["name"] = m.name;
        c["weight"] = 1;
        if (!m.options.empty())
            c["options"] = rwb::util::parseJson<nlohmann::ordered_json>(m.options);
        config["components"].push_back(std::move(c));
    }
    m_rewardConfig = QByteArray::fromStdString(config.dump(2) + "\n");
    setProblem(QString());
    m_create->setEnabled(true);
}

bool NewTaskDialog::create()
{
    refresh();
    if (!canCreate())
        return false;
    const QString taskFile = taskPath();
    const QString configFile = rewardConfigPath();
    QStringList existing;
    for (const QString &p : {taskFile, configFile})
        if (QFileInfo::exists(p))
            existing << QDir::toNativeSeparators(p);
    if (!existing.isEmpty() &&
        !confirm(tr("Overwrite files?"), tr("Overwrite %1?").arg(existing.join(QStringLiteral(", ")))))
        return false;
    if (!QDir().mkpath(outputDir())) {
        setProblem(tr("The folder %1 cannot be made.").arg(QDir::toNativeSeparators(outputDir())));
        return false;
    }
    const auto write = [this](const QString &path, const QByteArray &bytes) {
        QSaveFile f(path);
        if (f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit())
            return true;
        setProblem(tr("%1 cannot be written: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
        return false;
    };
    if (!write(taskFile, m_description->toPlainText().toUtf8()) || !write(configFile, m_rewardConfig))
        return false;
    Q_EMIT created(taskFile, configFile);
    accept();
    return true;
}
