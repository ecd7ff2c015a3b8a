#include "jobform.h"

#include "jobrunner.h"

#include "data/jsonl.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace rwb::widgets {

namespace {

bool isPath(JobField::Kind k)
{
    using K = JobField::Kind;
    return k == K::File || k == K::SaveFile || k == K::Folder || k == K::SaveFolder;
}

} // namespace

JobForm::JobForm(const QString &title, const QString &intro, QWidget *parent)
    : QDialog(parent)
    , m_groups(new QVBoxLayout)
    , m_problems(new QLabel(this))
    , m_commandView(new QPlainTextEdit(this))
    , m_copy(new QPushButton(tr("Copy command"), this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_debounce(new QTimer(this))
{
    setWindowTitle(title);
    setObjectName(QStringLiteral("jobForm"));
    auto *outer = new QVBoxLayout(this);
    if (!intro.isEmpty()) {
        auto *label = new QLabel(intro, this);
        label->setWordWrap(true);
        label->setObjectName(QStringLiteral("jobIntro"));
        outer->addWidget(label);
    }
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *inner = new QWidget(scroll);
    inner->setLayout(m_groups);
    m_groups->addStretch(1);
    scroll->setWidget(inner);
    outer->addWidget(scroll, 1);
    m_problems->setObjectName(QStringLiteral("jobProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problems->hide();
    outer->addWidget(m_problems);
    auto *commandLabel = new QLabel(tr("The command this runs (the CLI writes the same files):"), this);
    outer->addWidget(commandLabel);
    m_commandView->setObjectName(QStringLiteral("jobCommand"));
    m_commandView->setReadOnly(true);
    m_commandView->setMaximumHeight(m_commandView->fontMetrics().lineSpacing() * 3 + 12);
    m_commandView->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    outer->addWidget(m_commandView);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_start->setDefault(true);
    outer->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &JobForm::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(commandLine()); });
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, [this] { validate(); });
    // Fits a laptop's screen; the fields scroll.
    resize(640, 600);
}

void JobForm::addGroup(const QString &title)
{
    auto *box = new QGroupBox(title, this);
    m_current = new QFormLayout(box);
    m_current->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_groups->insertWidget(m_groups->count() - 1, box);
}

void JobForm::addField(const JobField &spec)
{
    if (!m_current)
        addGroup(QString());
    using K = JobField::Kind;
    Entry e;
    e.spec = spec;
    e.layout = m_current;
    switch (spec.kind) {
    case K::Int: {
        auto *w = new QSpinBox(this);
        w->setRange(static_cast<int>(spec.minimum), static_cast<int>(std::min(spec.maximum, 2147483647.0)));
        w->setValue(spec.value.toInt());
        connect(w, &QSpinBox::valueChanged, this, &JobForm::scheduleValidation);
        e.editor = e.row = w;
        break;
    }
    case K::Double: {
        auto *w = new QDoubleSpinBox(this);
        w->setDecimals(spec.decimals);
        w->setRange(spec.minimum, spec.maximum);
        w->setSingleStep(std::pow(10.0, -std::min(spec.decimals, 2)));
        w->setValue(spec.value.toDouble());
        connect(w, &QDoubleSpinBox::valueChanged, this, &JobForm::scheduleValidation);
        e.editor = e.row = w;
        break;
    }
    case K::Choice: {
        auto *w = new QComboBox(this);
        w->addItems(spec.choices);
        w->setCurrentText(spec.value.toString());
        connect(w, &QComboBox::currentTextChanged, this, &JobForm::scheduleValidation);
        e.editor = e.row = w;
        break;
    }
    case K::Check: {
        auto *w = new QCheckBox(this);
        w->setChecked(spec.value.toBool());
        connect(w, &QCheckBox::toggled, this, &JobForm::scheduleValidation);
        e.editor = e.row = w;
        break;
    }
    case K::Text: {
        auto *w = new QLineEdit(spec.value.toString(), this);
        connect(w, &QLineEdit::textChanged, this, &JobForm::scheduleValidation);
        e.editor = e.row = w;
        break;
    }
    case K::File:
    case K::SaveFile:
    case K::Folder:
    case K::SaveFolder: {
        auto *row = new QWidget(this);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto *w = new QLineEdit(spec.value.toString(), row);
        // A long path shows its end (the file's name) and scrolls; never clipped away.
        w->setMinimumWidth(120);
        auto *browse = new QToolButton(row);
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(tr("Browse"));
        const QString key = spec.key;
        connect(browse, &QToolButton::clicked, this, [this, key] { this->browse(key); });
        connect(w, &QLineEdit::textChanged, this, &JobForm::scheduleValidation);
        h->addWidget(w, 1);
        h->addWidget(browse);
        e.editor = w;
        e.row = row;
        break;
    }
    }
    e.editor->setObjectName(spec.key);
    e.editor->setToolTip(spec.toolTip);
    e.label = new QLabel(spec.label, this);
    e.label->setToolTip(spec.toolTip);
    e.label->setBuddy(e.editor);
    m_current->addRow(e.label, e.row);
    m_entries.insert(spec.key, e);
    m_order << spec.key;
    scheduleValidation();
}

void JobForm::addWidget(QWidget *widget)
{
    if (!m_current)
        addGroup(QString());
    m_current->addRow(widget);
}

void JobForm::setFieldVisible(const QString &key, bool visible)
{
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    it->layout->setRowVisible(it->row, visible);
    scheduleValidation();
}

bool JobForm::isFieldVisible(const QString &key) const
{
    const auto it = m_entries.find(key);
    return it != m_entries.end() && !it->row->isHidden();
}

void JobForm::setCommand(Command command, const QString &configPath)
{
    m_command = std::move(command);
    m_configPath = configPath;
    scheduleValidation();
}

void JobForm::setConfigPath(const QString &path)
{
    m_configPath = path;
    scheduleValidation();
}

QVariant JobForm::value(const QString &key) const
{
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return {};
    QWidget *w = it->editor;
    if (auto *s = qobject_cast<QSpinBox *>(w))
        return s->value();
    if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
        return d->value();
    if (auto *c = qobject_cast<QComboBox *>(w))
        return c->currentText();
    if (auto *b = qobject_cast<QCheckBox *>(w))
        return b->isChecked();
    if (auto *l = qobject_cast<QLineEdit *>(w)) {
        const QString text = l->text().trimmed();
        // A path as the form checked it: against the window's folder, whichever folder the
        // command runs in and whichever folder its config resolves against.
        if (isPath(it->spec.kind) && !text.isEmpty())
            return QDir::cleanPath(QFileInfo(text).absoluteFilePath());
        return text;
    }
    return {};
}

void JobForm::setValue(const QString &key, const QVariant &v)
{
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    QWidget *w = it->editor;
    if (auto *s = qobject_cast<QSpinBox *>(w))
        s->setValue(v.toInt());
    else if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
        d->setValue(v.toDouble());
    else if (auto *c = qobject_cast<QComboBox *>(w))
        c->setCurrentText(v.toString());
    else if (auto *b = qobject_cast<QCheckBox *>(w))
        b->setChecked(v.toBool());
    else if (auto *l = qobject_cast<QLineEdit *>(w))
        l->setText(v.toString());
}

QWidget *JobForm::field(const QString &key) const
{
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? nullptr : it->editor;
}

QJsonObject JobForm::config() const
{
    if (m_builder)
        return m_builder(*this);
    QJsonObject j;
    for (const QString &key : m_order) {
        const Entry &e = m_entries[key];
        if (e.row->isHidden())
            continue;
        const QVariant v = value(key);
        using K = JobField::Kind;
        switch (e.spec.kind) {
        case K::Int:
            j.insert(key, v.toInt());
            break;
        case K::Double:
            j.insert(key, v.toDouble());
            break;
        case K::Check:
            j.insert(key, v.toBool());
            break;
        default:
            if (!(v.toString().isEmpty() && (e.spec.optional || isPath(e.spec.kind))))
                j.insert(key, v.toString());
        }
    }
    return j;
}

QStringList JobForm::fieldProblems() const
{
    QStringList problems;
    using K = JobField::Kind;
    for (const QString &key : m_order) {
        const Entry &e = m_entries[key];
        if (e.row->isHidden())
            continue;
        const QString v = value(key).toString();
        if (isPath(e.spec.kind) || e.spec.kind == K::Text) {
            if (v.isEmpty()) {
                if (!e.spec.optional)
                    problems << tr("%1: required").arg(key);
                continue;
            }
        }
        if (e.spec.kind == K::File && !QFileInfo(v).isFile())
            problems << tr("%1: no such file: %2").arg(key, v);
        else if (e.spec.kind == K::Folder && !QFileInfo(v).isDir())
            problems << tr("%1: no such folder: %2").arg(key, v);
        else if (e.spec.kind == K::SaveFile && QFileInfo(v).isDir())
            problems << tr("%1: a folder, not a file: %2").arg(key, v);
        else if (e.spec.kind == K::SaveFolder && QFileInfo(v).exists() && !QFileInfo(v).isDir())
            problems << tr("%1: a file, not a folder: %2").arg(key, v);
    }
    return problems;
}

bool JobForm::validate(QStringList *out)
{
    m_debounce->stop();
    QStringList problems = fieldProblems();
    QStringList keys;
    for (const QString &p : std::as_const(problems))
        keys << p.section(QStringLiteral(": "), 0, 0);
    if (m_parser) {
        // The engine's parser stops at the first problem: note it, put that key back to a
        // stand-in and parse again, to find the next.
        QJsonObject json = config();
        for (const QString &k : std::as_const(keys))
            if (m_entries.contains(k) && isPath(m_entries[k].spec.kind))
                json.insert(k, QStringLiteral("unset"));
        for (int round = 0; round < 32; ++round) {
            try {
                m_parser(json);
                break;
            } catch (const data::InputException &e) {
                const QString reason = QString::fromStdString(e.error().reason);
                const QString key = reason.section(QStringLiteral(": "), 0, 0);
                if (!keys.contains(key))
                    problems << reason;
                if (!m_entries.contains(key) || keys.contains(key))
                    break;
                keys << key;
                const Entry &entry = m_entries[key];
                if (isPath(entry.spec.kind))
                    json.insert(key, QStringLiteral("unset"));
                else
                    json.insert(key, QJsonValue::fromVariant(entry.spec.value));
            } catch (const std::exception &e) {
                problems << QString::fromStdString(e.what());
                break;
            }
        }
    }
    if (m_validator) {
        for (const QString &p : m_validator(*this)) {
            problems << p;
            keys << p.section(QStringLiteral(": "), 0, 0);
        }
    }
    markInvalid(keys, problems);
    m_commandView->setPlainText(commandLine());
    m_start->setEnabled(problems.isEmpty());
    if (out)
        *out = problems;
    Q_EMIT validated(problems.isEmpty());
    return problems.isEmpty();
}

void JobForm::markInvalid(const QStringList &keys, const QStringList &problems)
{
    m_invalid.clear();
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        const bool bad = keys.contains(it.key());
        QWidget *w = it->editor;
        if (bad) {
            m_invalid << it.key();
            QStringList mine;
            for (const QString &p : problems)
                if (p.section(QStringLiteral(": "), 0, 0) == it.key())
                    mine << p;
            w->setToolTip(mine.join(QLatin1Char('\n')));
        } else {
            w->setToolTip(it->spec.toolTip);
        }
        if (w->property("invalid").toBool() != bad) {
            w->setProperty("invalid", bad);
            w->setStyleSheet(bad ? QStringLiteral("border: 1px solid #d32f2f") : QString());
        }
    }
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
}

QStringList JobForm::arguments() const
{
    return m_command ? m_command(*this, m_configPath) : QStringList();
}

QString JobForm::commandLine() const
{
    return JobRunner::shellQuoted(QStringLiteral("rwb"), arguments());
}

bool JobForm::writeConfig(QString *error) const
{
    if (m_configPath.isEmpty())
        return true;
    QDir().mkpath(QFileInfo(m_configPath).absolutePath());
    QSaveFile file(m_configPath);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(config()).toJson(QJsonDocument::Indented)) < 0 || !file.commit()) {
        if (error)
            *error = tr("%1: cannot write the job's config (%2)").arg(m_configPath, file.errorString());
        return false;
    }
    return true;
}

void JobForm::accept()
{
    QStringList problems;
    if (!validate(&problems)) {
        if (!m_invalid.isEmpty())
            if (QWidget *w = field(m_invalid.first()))
                w->setFocus();
        return;
    }
    QDialog::accept();
}

void JobForm::scheduleValidation()
{
    m_debounce->start();
}

void JobForm::browse(const QString &key)
{
    const Entry &e = m_entries[key];
    const QString current = value(key).toString();
    QString chosen;
    using K = JobField::Kind;
    switch (e.spec.kind) {
    case K::File:
        chosen = QFileDialog::getOpenFileName(this, e.spec.label, current, e.spec.filter);
        break;
    case K::SaveFile:
        chosen = QFileDialog::getSaveFileName(this, e.spec.label, current, e.spec.filter);
        break;
    case K::Folder:
    case K::SaveFolder:
        chosen = QFileDialog::getExistingDirectory(this, e.spec.label, current);
        break;
    default:
        break;
    }
    if (!chosen.isEmpty())
        setValue(key, chosen);
}

} // namespace rwb::widgets
