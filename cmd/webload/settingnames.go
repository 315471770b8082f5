package main

// settingName is what the loader's messages call a loader.Config field
// (loader.Config.SettingName): the flag that sets it, so that errors and the error samples of
// reports speak of what users typed. "" leaves the field's own name, for fields no message of
// the loader names.
func settingName(field string) string {
	switch field {
	case "Once":
		return "-r once"
	case "HeaderBuffer":
		return "--header-buffer"
	case "CACert":
		return "--cacert"
	case "ClientCert":
		return "--cert"
	case "ClientKey":
		return "--key"
	case "Proxy":
		return "--proxy"
	case "Resolve":
		return "--resolve"
	case "ConnectTo":
		return "--connect-to"
	case "HTTP2":
		return "--http2"
	case "ConnectionClose":
		return "--connection close"
	case "Volatile":
		return "--volatile"
	case "ReloginEvery":
		return "--relogin-every"
	}
	return ""
}
