// Where the services' browser endpoints are (see src/config.ts). Empty: the
// page's own origin serves every service. Example for services on their own
// ports:
// window.ROOST_CONFIG = { endpoints: { wingspan: "http://localhost:8052" } };
window.ROOST_CONFIG = window.ROOST_CONFIG || {};
