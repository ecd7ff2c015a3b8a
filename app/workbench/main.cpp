// reward-workbench: the desktop workbench.
#include "languagemanager.h"
#include "mainwindow.h"
#include "rewarddesigner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RewardWorkbench"));
    QApplication::setApplicationName(QStringLiteral("reward-workbench"));
    QApplication::setApplicationVersion(QStringLiteral(RWB_VERSION));

    // The language first, so that --help is translated too; --lang is read again below.
    LanguageManager language;
    QString langArg;
    for (int i = 1; i + 1 < argc; ++i)
        if (QByteArray(argv[i]) == "--lang")
            langArg = QString::fromLocal8Bit(argv[i + 1]);
    language.setChoice(langArg.isEmpty() ? LanguageManager::storedChoice() : langArg);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Reward Workbench: design and debug rewards for GRPO fine-tuning."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption samples(QStringLiteral("samples"), QCoreApplication::translate("main", "Extraction samples to open (JSONL)."),
                                     QCoreApplication::translate("main", "file"));
    const QCommandLineOption config(QStringLiteral("config"), QCoreApplication::translate("main", "Reward config to open (JSON)."),
                                    QCoreApplication::translate("main", "file"));
    const QCommandLineOption lang(QStringLiteral("lang"), QCoreApplication::translate("main", "Language: system, en or ja (remembered)."),
                                  QCoreApplication::translate("main", "code"));
    const QCommandLineOption select(QStringLiteral("select"), QCoreApplication::translate("main", "Select this row of the sample table."),
                                    QCoreApplication::translate("main", "row"), QStringLiteral("0"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("main", "Save a screenshot of the window to this PNG and quit."),
                                        QCoreApplication::translate("main", "png"));
    parser.addOptions({samples, config, lang, select, screenshot});
    parser.process(app);

    MainWindow window(&language);
    window.openInitialFiles(parser.value(samples), parser.value(config));
    window.designer()->selectRow(parser.value(select).toInt());
    window.show();

    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        QTimer::singleShot(1500, &window, [&window, path] {
            const bool ok = window.grab().save(path);
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
