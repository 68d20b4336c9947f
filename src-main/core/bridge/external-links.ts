/** The allowlist lives in src-shared: the page renders a link only where the host would open it. */
export { EXTERNAL_HOSTS, hostOfHttps, isAllowedExternal } from '../../../src-shared/external-links';
