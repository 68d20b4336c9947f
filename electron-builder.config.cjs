// @ts-check
/**
 * Packaging for the desktop app (`npm run dist`, on a build machine: it downloads Electron).
 * docs/desktop.md explains each choice; test/unit/app/packaging-config.test.ts holds the fuses and
 * asarUnpack rows of that document and this file to each other.
 *
 * Release feed: the first `publish` entry is written into the app as app-update.yml and is where the
 * updater looks. POSTDESK_UPDATE_PROVIDER=github puts the GitHub entry first.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- electron-builder reads a CommonJS config
const { cliRuntimePackages } = require('./scripts/cli-runtime.cjs');

/**
 * The `postdesk` command the app puts on the PATH on request runs the built CLI with the user's Node (the RunAsNode
 * fuse is off, so the app's binary cannot): the launcher, the CLI and web builds, and every package the CLI loads
 * from node_modules are unpacked beside app.asar, where a plain Node can read them (docs/cli.md).
 */
const CLI_UNPACKED = [
  'bin/postdesk.js',
  'out/cli/**',
  'out/web/**',
  ...cliRuntimePackages(__dirname).map((name) => `node_modules/${name}/**`),
];

const UPDATE_URL = process.env.POSTDESK_UPDATE_URL ?? 'https://updates.postdesk.app/desktop';
const GITHUB_OWNER = process.env.POSTDESK_GITHUB_OWNER ?? 'postdesk';
const GITHUB_REPO = process.env.POSTDESK_GITHUB_REPO ?? 'postdesk-desktop';
// The release workflow uploads every platform's files to one draft, then publishes it (see release.yml).
const RELEASE_TYPE = process.env.POSTDESK_RELEASE_TYPE === 'draft' ? 'draft' : 'release';

/** @type {Array<import('builder-util-runtime').GenericServerOptions | import('builder-util-runtime').GithubOptions>} */
const feeds = [
  { provider: 'generic', url: UPDATE_URL },
  { provider: 'github', owner: GITHUB_OWNER, repo: GITHUB_REPO, releaseType: RELEASE_TYPE },
];
const publish = process.env.POSTDESK_UPDATE_PROVIDER === 'github' ? [...feeds].reverse() : feeds;

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'app.postdesk.desktop',
  productName: 'Postdesk',
  executableName: 'postdesk',
  copyright: 'Copyright © Postdesk contributors',
  directories: { buildResources: 'resources', output: 'release/${version}' },
  // The deb package's homepage and maintainer ("name <email>") are package.json's `homepage` and
  // `author`, which electron-builder reads itself: nothing here repeats them.

  // electron-vite's output plus package.json; production dependencies are added by electron-builder.
  // bin/postdesk.js: the launcher of the CLI on the PATH (above).
  files: ['out/**/*', 'bin/postdesk.js', 'package.json', '!**/*.map', '!out/cli/inputs.json'],
  extraResources: [
    { from: 'resources/tray', to: 'tray', filter: ['*.png'] },
    { from: 'resources/icon.png', to: 'icon.png' },
  ],

  asar: true,
  // Native code cannot be loaded from inside app.asar: these are unpacked next to it (app.asar.unpacked).
  asarUnpack: [
    'node_modules/better-sqlite3/**',
    'node_modules/@napi-rs/keyring*/**',
    'node_modules/@ffmpeg-installer/**',
    'node_modules/@ffprobe-installer/**',
    '**/*.node',
    ...CLI_UNPACKED,
  ],
  // better-sqlite3 13 and @napi-rs/keyring ship Node-API prebuilds that load in Electron as they are (ABI-stable):
  // a rebuild would only demand a compiler on the build machine.
  npmRebuild: false,
  nodeGypRebuild: false,

  // Flipped in the Electron binary right before signing. See docs/desktop.md, "Fuses".
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: false,
  },

  protocols: [{ name: 'Postdesk link', schemes: ['postdesk'] }],

  publish,
  // Stable builds also write beta-*.yml, so the beta channel gets stable releases too.
  generateUpdatesFilesForAllChannels: true,
  detectUpdateChannel: true,

  linux: {
    target: ['AppImage', 'deb'],
    icon: 'resources/icons',
    category: 'Office',
    vendor: 'Postdesk',
    synopsis: 'Schedule and publish posts; run automations on your machine',
    // The .desktop file registers postdesk:// with xdg (electron-builder adds the MimeType from `protocols`).
    desktop: { entry: { StartupWMClass: 'Postdesk' } },
  },
  deb: {
    // libsecret is the OS keychain behind @napi-rs/keyring on Linux.
    depends: ['libsecret-1-0', 'libnotify4', 'libxtst6', 'libnss3'],
  },
  appImage: { artifactName: 'Postdesk-${version}-${arch}.AppImage' },

  win: { target: ['nsis'], icon: 'resources/icon.ico' },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    artifactName: 'Postdesk-Setup-${version}.exe',
  },

  mac: {
    // Squirrel.Mac updates from the zip; the dmg is for first installs.
    target: ['dmg', 'zip'],
    icon: 'resources/icon.icns',
    category: 'public.app-category.productivity',
    hardenedRuntime: true,
  },
  dmg: { artifactName: 'Postdesk-${version}-${arch}.dmg' },
};

module.exports = config;
