#include "mainwindow.h"

#include "languagemanager.h"
#include "rewarddesigner.h"
#include "samplescoremodel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace {
// The bundled sample set and the preset opened on a first start (the paper's best, table 2 *).
const char *const kBundledSamples = ":/samples/company_samples.jsonl";
const char *const kDefaultPreset = ":/presets/table2_star_partial20_marker80.json";
} // namespace

MainWindow::MainWindow(LanguageManager *language, QWidget *parent) : QMainWindow(parent), m_language(language)
{
    setObjectName(QStringLiteral("mainWindow"));
    m_designer = new RewardDesigner(this);
    setCentralWidget(m_designer->samplesPanel());

    m_componentsDock = new QDockWidget(this);
    m_componentsDock->setObjectName(QStringLiteral("rewardComponentsDock"));
    m_componentsDock->setWidget(m_designer->componentsPanel());
    addDockWidget(Qt::LeftDockWidgetArea, m_componentsDock);

    m_detailDock = new QDockWidget(this);
    m_detailDock->setObjectName(QStringLiteral("sampleDetailDock"));
    m_detailDock->setWidget(m_designer->detailPanel());
    addDockWidget(Qt::RightDockWidgetArea, m_detailDock);
    resizeDocks({m_componentsDock, m_detailDock}, {330, 440}, Qt::Horizontal);

    m_samplesStatus = new QLabel(this);
    statusBar()->addPermanentWidget(m_samplesStatus);
    connect(m_designer, &RewardDesigner::samplesLoaded, this, &MainWindow::onSamplesLoaded);
    connect(m_designer, &RewardDesigner::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 5000); });
    connect(m_designer, &RewardDesigner::configLoaded, this, [this](const QString &path) {
        const QString name = QString::fromStdString(m_designer->currentConfig().name);
        statusBar()->showMessage(tr("Reward config: %1").arg(name.isEmpty() ? path : name), 5000);
    });

    createActions();
    retranslate();
    resize(1600, 950);
    m_defaultState = saveState();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_openSamples = new QAction(this);
    m_openSamples->setShortcut(QKeySequence::Open);
    connect(m_openSamples, &QAction::triggered, m_designer, &RewardDesigner::openSamplesDialog);
    m_openBundled = new QAction(this);
    connect(m_openBundled, &QAction::triggered, this, &MainWindow::openBundledSamples);
    m_loadConfig = new QAction(this);
    m_loadConfig->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_loadConfig, &QAction::triggered, m_designer, &RewardDesigner::openConfigDialog);
    m_saveConfig = new QAction(this);
    m_saveConfig->setShortcut(QKeySequence::Save);
    connect(m_saveConfig, &QAction::triggered, m_designer, &RewardDesigner::saveConfigDialog);
    m_quit = new QAction(this);
    m_quit->setShortcut(QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
    m_resetLayout = new QAction(this);
    connect(m_resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    m_about = new QAction(this);
    connect(m_about, &QAction::triggered, this, &MainWindow::showAbout);

    m_languageGroup = new QActionGroup(this);
    m_langSystem = new QAction(this);
    m_langEnglish = new QAction(QStringLiteral("English"), this);
    m_langJapanese = new QAction(QStringLiteral("日本語"), this);
    for (auto [a, code] : {std::pair{m_langSystem, "system"}, {m_langEnglish, "en"}, {m_langJapanese, "ja"}}) {
        a->setCheckable(true);
        a->setData(QString::fromLatin1(code));
        m_languageGroup->addAction(a);
        a->setChecked(m_language && m_language->choice() == QLatin1String(code));
    }
    connect(m_languageGroup, &QActionGroup::triggered, this, [this](QAction *a) {
        if (m_language)
            m_language->setChoice(a->data().toString());
    });

    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(m_openSamples);
    m_fileMenu->addAction(m_openBundled);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_loadConfig);
    m_fileMenu->addAction(m_saveConfig);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);
    m_viewMenu = menuBar()->addMenu(QString());
    m_viewMenu->addAction(m_componentsDock->toggleViewAction());
    m_viewMenu->addAction(m_detailDock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayout);
    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageMenu->addActions(m_languageGroup->actions());
    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(m_about);
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("Reward Workbench"));
    m_componentsDock->setWindowTitle(tr("Reward components"));
    m_detailDock->setWindowTitle(tr("Sample details"));
    m_fileMenu->setTitle(tr("&File"));
    m_viewMenu->setTitle(tr("&View"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_helpMenu->setTitle(tr("&Help"));
    m_openSamples->setText(tr("&Open samples…"));
    m_openBundled->setText(tr("Open the &bundled samples"));
    m_loadConfig->setText(tr("&Load reward config…"));
    m_saveConfig->setText(tr("&Save reward config as…"));
    m_quit->setText(tr("&Quit"));
    m_resetLayout->setText(tr("&Reset layout"));
    m_about->setText(tr("&About Reward Workbench"));
    m_langSystem->setText(tr("System language"));
    if (m_designer->model())
        onSamplesLoaded(m_designer->samplesPath(), -1);
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::onSamplesLoaded(const QString &path, int count)
{
    if (path.isEmpty()) {
        m_samplesStatus->clear();
        return;
    }
    Q_UNUSED(count);
    const QString name = path.startsWith(QLatin1String(":/")) ? tr("bundled samples") : QFileInfo(path).fileName();
    m_samplesStatus->setText(tr("%1 · %n sample(s)", nullptr, m_designer->model()->rowCount(QModelIndex())).arg(name));
}

void MainWindow::openInitialFiles(const QString &samples, const QString &config)
{
    QSettings s;
    QString samplesPath = samples.isEmpty() ? s.value(QStringLiteral("samples")).toString() : samples;
    QString configPath = config.isEmpty() ? s.value(QStringLiteral("config")).toString() : config;
    QString error;
    QStringList problems;
    if (samplesPath.isEmpty() || !m_designer->loadSamples(samplesPath, &error, &problems)) {
        if (!samplesPath.isEmpty())
            QMessageBox::warning(this, tr("Open samples"), error + QLatin1Char('\n') + tr("The bundled samples are shown instead."));
        m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error);
    } else if (!problems.isEmpty()) {
        statusBar()->showMessage(tr("%n malformed line(s) skipped: %1", nullptr, static_cast<int>(problems.size()))
                                     .arg(problems.first()));
    }
    if (configPath.isEmpty() || !m_designer->loadConfig(configPath, &error)) {
        if (!configPath.isEmpty())
            QMessageBox::warning(this, tr("Load reward config"), error + QLatin1Char('\n') + tr("The paper's best preset is used instead."));
        m_designer->loadConfig(QString::fromLatin1(kDefaultPreset), &error);
    }
    m_designer->selectRow(0);
}

void MainWindow::openBundledSamples()
{
    QString error;
    if (!m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error))
        QMessageBox::warning(this, tr("Open samples"), error);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    m_componentsDock->show();
    m_detailDock->show();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Reward Workbench"),
                       tr("<h3>Reward Workbench %1</h3><p>Design rewards for GRPO fine-tuning, see what each component "
                          "gives on real samples, and debug failed extractions.</p>")
                           .arg(QStringLiteral(RWB_VERSION)));
}

void MainWindow::restoreLayout()
{
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::saveLayout()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("samples"), m_designer->samplesPath());
    s.setValue(QStringLiteral("config"), m_designer->configPath());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    event->accept();
}
