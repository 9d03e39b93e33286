/**
 * The word lists entity extraction (core/entities/) looks names up in: gazetteers of tools, places
 * and organisations, name-shape cues (suffixes, prefixes, honorifics, first names), the words
 * that cannot be or start a name, aliases, and the shapes of file names, URLs and paths. Data
 * only: pipe-separated strings (so multi-word entries such as "New York" and dotted ones such as
 * "Node.js" fit) and the Sets made from them once at load.
 */

/** Languages, databases, frameworks, services and apps: the gazetteer's tools. */
export const TOOLS =
	'JavaScript|TypeScript|Python|Java|Kotlin|Swift|Rust|Go|Ruby|PHP|Perl|Scala|Haskell|Elixir|' +
	'Erlang|Clojure|Lua|Julia|Dart|Zig|Nim|OCaml|Fortran|COBOL|MATLAB|Bash|Zsh|PowerShell|SQL|' +
	'GraphQL|HTML|CSS|Sass|WebAssembly|Solidity|C++|C#|F#|Objective-C|Elm|Groovy|' +
	'PostgreSQL|MySQL|MariaDB|SQLite|MongoDB|Redis|Cassandra|DynamoDB|Elasticsearch|OpenSearch|' +
	'Neo4j|CouchDB|IndexedDB|Dexie|Supabase|Firebase|Firestore|Snowflake|BigQuery|ClickHouse|' +
	'DuckDB|InfluxDB|Pinecone|Weaviate|Qdrant|Milvus|pgvector|Memcached|Kafka|RabbitMQ|' +
	'React|Vue|Angular|Svelte|SvelteKit|Next.js|Nuxt|Remix|Astro|SolidJS|Ember|jQuery|Express|' +
	'Fastify|NestJS|Django|Flask|FastAPI|Rails|Ruby on Rails|Laravel|Spring Boot|Spring Framework|ASP.NET|' +
	'.NET|Node.js|Deno|Bun|Vite|Webpack|Rollup|esbuild|Babel|Tailwind|Tailwind CSS|Bootstrap|' +
	'Redux|Zustand|Apollo|Prisma|Drizzle|Sequelize|TypeORM|Mongoose|Electron|Tauri|Flutter|' +
	'React Native|SwiftUI|Jetpack Compose|Unity|Unreal Engine|Godot|TensorFlow|PyTorch|Keras|JAX|' +
	'scikit-learn|NumPy|Pandas|Polars|Jupyter|LangChain|LlamaIndex|OpenCV|Apache Spark|Hadoop|' +
	'Airflow|dbt|Vitest|Jest|Mocha|Cypress|Playwright|Puppeteer|Selenium|pytest|JUnit|ESLint|' +
	'Prettier|Storybook|Zod|Comlink|MiniSearch|Three.js|D3.js|Cytoscape|transformers.js|ONNX|' +
	'Git|GitHub|GitLab|Bitbucket|Docker|Kubernetes|Helm|Terraform|Ansible|Pulumi|Jenkins|' +
	'CircleCI|GitHub Actions|Travis CI|Nginx|Caddy|Linux|Ubuntu|Debian|Fedora|Arch Linux|macOS|' +
	'Windows|iOS|Android|AWS|AWS Lambda|Azure|GCP|Google Cloud|Cloudflare|Vercel|Netlify|Heroku|' +
	'DigitalOcean|Fly.io|S3|EC2|npm|pnpm|Yarn|pip|Poetry|Conda|Cargo|Homebrew|VS Code|' +
	'Visual Studio|Vim|Neovim|Emacs|IntelliJ|PyCharm|Xcode|Jira|Confluence|Slack|Discord|Notion|' +
	'Figma|Trello|Asana|Obsidian|Zoom|Microsoft Teams|Excel|PowerPoint|Google Docs|' +
	'Google Sheets|Google Drive|Google Maps|Gmail|Chrome|Chromium|Firefox|Safari|ChatGPT|GPT-4|' +
	'GPT-4o|Gemini|Llama|Copilot|Cursor|Claude Code|Ollama|WebLLM|MCP|Postman|Grafana|' +
	'Prometheus|Datadog|Sentry|Kibana|Twilio|Auth0|OAuth|JWT|gRPC|WebSocket|WebGPU|WebRTC|' +
	'Protobuf|JSON|YAML|TOML|Markdown|LaTeX|Tableau|Power BI|Photoshop|Blender|iPhone|iPad|' +
	'MacBook|Kindle|PlayStation|Xbox|Nintendo Switch|Spotify|WhatsApp|Telegram|Signal|YouTube|' +
	'Instagram|TikTok|Strava|Duolingo|Anki|Raspberry Pi|Arduino|Tailscale|WireGuard|OpenAPI|' +
	'Swagger|Vitess|systemd|Zapier|Airtable|HubSpot|SQL Server|Chart.js|Alpine.js|Backbone.js|' +
	'Socket.IO|p5.js|Leaflet|Mapbox|Express.js|Ember.js|Nuxt.js|Nest.js';

/** Tool names that are also ordinary words: recognised only when written capitalised. */
export const COMMON_WORD_TOOLS = new Set(
	(
		'go|rust|swift|ruby|java|julia|dart|elm|express|react|remix|astro|ember|bun|jest|mocha|' +
		'cypress|spark|notion|slack|discord|zoom|excel|chrome|safari|gemini|llama|copilot|cursor|' +
		'bootstrap|unity|flask|rails|helm|cargo|poetry|yarn|pip|babel|sass|apollo|prisma|drizzle|' +
		'electron|windows|signal|snowflake|caddy|polars|pandas|sentry|swagger|kindle|telegram|' +
		'obsidian|blender|tableau|node|leaflet|mongoose|airflow|bash|groovy|markdown|vim|linear|' +
		'bun|deno|anki|arduino|leaflet|zapier'
	).split('|'),
);

/** Countries, regions and cities: the gazetteer's places. */
export const PLACES =
	// Countries.
	'Afghanistan|Albania|Algeria|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahamas|' +
	'Bangladesh|Belarus|Belgium|Bolivia|Bosnia|Botswana|Brazil|Bulgaria|Cambodia|Cameroon|' +
	'Canada|Chile|China|Colombia|Costa Rica|Croatia|Cuba|Cyprus|Czechia|Czech Republic|Denmark|' +
	'Dominican Republic|Ecuador|Egypt|El Salvador|England|Estonia|Ethiopia|Fiji|Finland|France|' +
	'Germany|Ghana|Greece|Guatemala|Haiti|Honduras|Hungary|Iceland|India|Indonesia|Iran|Iraq|' +
	'Ireland|Israel|Italy|Jamaica|Japan|Kazakhstan|Kenya|Kosovo|Kuwait|Laos|Latvia|Lebanon|' +
	'Libya|Lithuania|Luxembourg|Madagascar|Malaysia|Maldives|Mali|Malta|Mexico|Moldova|Monaco|' +
	'Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Namibia|Nepal|Netherlands|New Zealand|' +
	'Nicaragua|Niger|Nigeria|North Korea|North Macedonia|Norway|Oman|Pakistan|Palestine|Panama|' +
	'Paraguay|Peru|Philippines|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Saudi Arabia|Scotland|' +
	'Senegal|Serbia|Singapore|Slovakia|Slovenia|Somalia|South Africa|South Korea|Korea|Spain|' +
	'Sri Lanka|Sudan|Sweden|Switzerland|Syria|Taiwan|Tanzania|Thailand|Tunisia|Turkey|Türkiye|' +
	'Uganda|Ukraine|United Arab Emirates|UAE|United Kingdom|UK|United States|USA|US|Uruguay|' +
	'Uzbekistan|Venezuela|Vietnam|Wales|Yemen|Zambia|Zimbabwe|Europe|Asia|Africa|' +
	'North America|South America|Antarctica|Oceania|Scandinavia|Middle East|Caribbean|' +
	// Major cities.
	'New York|New York City|Los Angeles|San Francisco|Chicago|Seattle|Boston|Austin|Denver|' +
	'Portland|Miami|Atlanta|Dallas|Houston|Philadelphia|Phoenix|San Diego|San Jose|Las Vegas|' +
	'Nashville|New Orleans|Detroit|Minneapolis|Pittsburgh|Baltimore|Brooklyn|Manhattan|' +
	'Honolulu|Toronto|Vancouver|Montreal|Ottawa|Calgary|Mexico City|Havana|Bogotá|Lima|Santiago|' +
	'Buenos Aires|São Paulo|Rio de Janeiro|London|Manchester|Liverpool|Edinburgh|Glasgow|' +
	'Dublin|Paris|Lyon|Marseille|Berlin|Munich|Hamburg|Frankfurt|Cologne|Amsterdam|Rotterdam|' +
	'Brussels|Zurich|Geneva|Vienna|Prague|Budapest|Warsaw|Krakow|Copenhagen|Stockholm|Oslo|' +
	'Helsinki|Reykjavik|Madrid|Barcelona|Valencia|Seville|Lisbon|Porto|Rome|Milan|Naples|' +
	'Venice|Athens|Istanbul|Moscow|Kyiv|Kiev|Bucharest|Sofia|Belgrade|Cairo|Lagos|Nairobi|' +
	'Accra|Casablanca|Marrakech|Cape Town|Johannesburg|Addis Ababa|Dubai|Abu Dhabi|Doha|' +
	'Riyadh|Tel Aviv|Jerusalem|Tehran|Mumbai|Delhi|New Delhi|Bangalore|Bengaluru|Chennai|' +
	'Kolkata|Hyderabad|Pune|Karachi|Lahore|Dhaka|Kathmandu|Colombo|Bangkok|Hanoi|' +
	'Ho Chi Minh City|Kuala Lumpur|Jakarta|Bali|Manila|Beijing|Shanghai|Shenzhen|Guangzhou|' +
	'Hong Kong|Taipei|Seoul|Busan|Tokyo|Kyoto|Osaka|Sydney|Melbourne|Brisbane|Perth|Auckland|' +
	'Wellington|Silicon Valley|Bay Area|' +
	// US states.
	'Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|' +
	'Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|' +
	'Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|' +
	'New Mexico|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|' +
	'South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|' +
	'West Virginia|Wisconsin|Wyoming';

/** Companies and institutions: the gazetteer's organisations. */
export const ORGANISATIONS =
	'Google|Alphabet|Microsoft|Apple|Amazon|Meta|Facebook|Netflix|OpenAI|Anthropic|IBM|Intel|AMD|' +
	'Nvidia|Qualcomm|Samsung|Sony|Tesla|SpaceX|Twitter|LinkedIn|Uber|Lyft|Airbnb|Stripe|' +
	'Oracle|SAP|Adobe|Atlassian|Mozilla|Wikipedia|Reddit|Hugging Face|DeepMind|Mistral AI|' +
	'Cohere|Red Hat|Canonical|JetBrains|Dropbox|PayPal|Visa|Mastercard|Walmart|Costco|IKEA|' +
	"Starbucks|McDonald’s|McDonald's|Coca-Cola|PepsiCo|Nike|Adidas|BMW|Toyota|Volkswagen|Honda|" +
	'Boeing|Airbus|NASA|ESA|CERN|United Nations|UN|European Union|EU|WHO|NATO|UNESCO|UNICEF|' +
	'FBI|CIA|NHS|BBC|CNN|Reuters|MIT|Stanford|Harvard|Yale|Princeton|Y Combinator|Accenture|' +
	'Deloitte|McKinsey|Goldman Sachs|JPMorgan|Morgan Stanley|Bloomberg|Alibaba|Tencent|Baidu|' +
	'ByteDance|Huawei|Xiaomi|Infosys|Siemens|Bosch|Philips|Nokia|Ericsson|Pinterest|Snapchat|' +
	'Etsy|eBay|Salesforce|Vercel|Cloudflare|Spotify|Duolingo|Nintendo|Valve|Epic Games|Ubisoft|' +
	'Red Cross|Greenpeace|WWF|Oxfam|Doctors Without Borders|Wikimedia';

/** Last words that make a proper name an organisation ("Acme Corp", "Open Source Initiative"). */
export const ORG_SUFFIXES = new Set(
	(
		'inc|corp|corporation|co|company|ltd|llc|llp|plc|gmbh|ag|sa|sas|srl|bv|nv|oy|ab|kk|pty|' +
		'university|college|institute|foundation|labs|lab|group|bank|agency|association|society|' +
		'ministry|department|council|hospital|clinic|school|academy|partners|holdings|' +
		'technologies|technology|systems|solutions|studios|studio|ventures|capital|industries|' +
		'enterprises|consulting|media|games|pharmaceuticals|initiative|trust|fund|federation|' +
		'union|committee|commission|authority|office|bureau|church|club|team|press|records|' +
		'airlines|motors|bakery|cafe|café|restaurant|hotel|gym|museum|library'
	).split('|'),
);

/** First words that make a proper name an organisation ("University of Oxford"). */
export const ORG_PREFIXES = new Set(['university', 'bank', 'institute', 'ministry', 'department', 'museum']);

/** Last words that make a proper name a place ("Baker Street", "Lake Tahoe" uses the prefix). */
export const PLACE_SUFFIXES = new Set(
	(
		'street|st|avenue|ave|road|rd|boulevard|blvd|lane|drive|square|plaza|park|river|lake|' +
		'mountain|mountains|mount|island|islands|bay|beach|city|county|valley|canyon|falls|' +
		'forest|desert|coast|harbor|harbour|peninsula|heights|hills|village|town|district|' +
		'province|state|airport|station'
	).split('|'),
);
/** First words that make a run of capitalised words a place ("Lake …", "Mount …"). */
export const PLACE_PREFIXES = new Set(['mount', 'mt', 'lake', 'lago', 'cape', 'port', 'fort', 'isle', 'san', 'santa', 'saint', 'st']);

/** Titles before a name; they mark a person and are not part of the name. */
export const HONORIFICS = new Set(
	(
		'dr|mr|mrs|ms|mx|miss|prof|professor|sir|dame|lord|lady|rev|fr|capt|captain|sgt|col|gen|' +
		'lt|judge|president|senator|governor|mayor|uncle|aunt|auntie|grandma|grandpa|granny|coach|' +
		'officer|detective|nurse|king|queen|prince|princess|pope|rabbi|imam|sister|brother'
	).split('|'),
);

/** Common first names of many cultures; a capitalised one starts a person's name. */
export const FIRST_NAMES = new Set(
	(
		'james|john|robert|michael|william|david|richard|joseph|thomas|charles|christopher|daniel|' +
		'matthew|anthony|mark|donald|steven|paul|andrew|joshua|kenneth|kevin|brian|george|' +
		'timothy|ronald|edward|jason|jeffrey|ryan|jacob|gary|nicholas|eric|jonathan|stephen|' +
		'larry|justin|scott|brandon|benjamin|samuel|frank|gregory|raymond|alexander|patrick|jack|' +
		'dennis|jerry|tyler|aaron|jose|adam|nathan|henry|zachary|douglas|peter|kyle|noah|ethan|' +
		'jeremy|walter|christian|keith|roger|terry|austin|sean|gerald|carl|harold|dylan|arthur|' +
		'lawrence|jordan|jesse|bryan|billy|bruce|gabriel|joe|logan|alan|juan|albert|willie|' +
		'elijah|wayne|randy|vincent|mason|roy|ralph|bobby|russell|bradley|philip|eugene|tom|tim|' +
		'ben|sam|max|leo|oliver|lucas|liam|harry|charlie|oscar|alfie|archie|theo|finn|felix|hugo|' +
		'jake|luke|owen|isaac|caleb|ian|neil|nick|dan|mike|matt|chris|alex|rob|bob|bill|will|' +
		'ted|fred|ned|ed|jim|tony|steve|dave|greg|jeff|marcus|julian|simon|martin|victor|' +
		'mary|patricia|jennifer|linda|elizabeth|barbara|susan|jessica|sarah|karen|lisa|nancy|' +
		'betty|margaret|sandra|ashley|kimberly|emily|donna|michelle|carol|amanda|dorothy|melissa|' +
		'deborah|stephanie|rebecca|sharon|laura|cynthia|kathleen|amy|angela|shirley|anna|brenda|' +
		'pamela|emma|nicole|helen|samantha|katherine|christine|debra|rachel|carolyn|janet|' +
		'catherine|maria|heather|diane|ruth|julie|olivia|joyce|virginia|victoria|kelly|lauren|' +
		'christina|joan|evelyn|judith|megan|andrea|cheryl|hannah|jacqueline|martha|gloria|teresa|' +
		'ann|sara|madison|frances|kathryn|janice|jean|abigail|alice|judy|sophia|grace|denise|' +
		'amber|doris|marilyn|danielle|beverly|isabella|theresa|diana|natalie|brittany|charlotte|' +
		'marie|kayla|alexis|lori|ava|mia|amelia|harper|ella|chloe|lily|zoe|nora|hazel|aria|' +
		'ellie|ruby|ivy|isla|freya|poppy|rosie|lucy|sophie|holly|kate|katie|jess|jen|beth|meg|' +
		'claire|clara|eva|iris|julia|lena|nina|tina|vera|ada|may|june|april|' +
		'maya|priya|ravi|raj|rahul|amit|arjun|vikram|anil|sanjay|deepak|suresh|ramesh|kiran|' +
		'ananya|aditi|neha|pooja|divya|sneha|anjali|kavya|isha|meera|rohan|aarav|vivek|nikhil|' +
		'wei|li|jing|ming|hui|yan|xin|lei|jun|hao|chen|yu|mei|ling|xiao|kenji|hiroshi|takeshi|' +
		'yuki|haruto|sakura|yui|aiko|akira|kaito|ren|sora|hana|emi|min-jun|seo-yeon|ji-hoon|' +
		'ji-woo|hyun|soo|jae|mohammed|muhammad|ahmed|ali|omar|hassan|hussein|ibrahim|yusuf|khalid|' +
		'fatima|aisha|zainab|layla|leila|mariam|noor|yasmin|amira|salma|jamal|tariq|karim|' +
		'mustafa|samir|nadia|rania|dalia|olu|chinedu|emeka|kwame|kofi|ama|amara|ngozi|adaeze|' +
		'chioma|tunde|femi|sade|zuri|imani|thabo|sipho|lerato|aminata|moussa|ousmane|' +
		'carlos|luis|miguel|javier|alejandro|diego|pablo|sergio|jorge|manuel|antonio|francisco|' +
		'rafael|fernando|ricardo|eduardo|mateo|santiago|sofia|sofía|lucia|lucía|valentina|' +
		'camila|isabel|elena|carmen|rosa|ana|paula|marta|gabriela|mariana|daniela|catalina|' +
		'pedro|joao|joão|tiago|thiago|bruno|rodrigo|gustavo|felipe|beatriz|fernanda|leticia|' +
		'pierre|jean-pierre|jacques|louis|antoine|nicolas|julien|mathieu|camille|chloé|léa|manon|' +
		'juliette|margot|amélie|hans|klaus|jürgen|stefan|lukas|jonas|leon|paul|anja|katrin|' +
		'sabine|ute|greta|lars|sven|erik|nils|anders|astrid|ingrid|sigrid|elin|johan|mikael|' +
		'giovanni|giuseppe|marco|luca|matteo|alessandro|francesca|giulia|chiara|sara|aurora|' +
		'ivan|dmitri|dmitry|sergei|alexei|nikolai|vladimir|olga|natasha|tatiana|irina|svetlana|' +
		'anastasia|katya|pavel|piotr|tomasz|krzysztof|agnieszka|kasia|zofia|jan|jana|petra|' +
		'mehmet|mustafa|emre|ayse|elif|zeynep|yosef|avi|noa|tamar|yael|eitan|' +
		'kai|sky|river|quinn|riley|jamie|taylor|morgan|casey|avery|rowan|sage|robin|' +
		'nguyen|minh|linh|anh|tuan|thanh|siti|putri|budi|agus|dewi|rizal|jose|maricel|' +
		'rose|andre|andré|gregor|ollie|olly|sue|liz|stan|hank|earl|ray|joy|lou|jo|pat|kim|lee|' +
		'lynn|dana|drew|jon|joel|josh|zach|nate|tess|ella|gemma|abby|molly|millie|jasmine|' +
		'leah|naomi|esther|miriam|dinah|blanche|dolores|agnes|edith|mabel|ivan|omar|yara|' +
		'ayumi|haruki|riku|daiki|mei-ling|xiu|bao|thu|kwesi|abena|yaw|efua|chidi|obinna|' +
		'ife|bola|dayo|nia|malik|andile|luca|enzo|niko|mila|anya|sasha|misha|boris|igor|' +
		'oleg|yusuf|emir|deniz|arash|dariush|shirin|parisa|reza|navid|farah|samira'
	).split('|'),
);

/** Capitalised words that start sentences or are pronouns: never a name on their own. */
export const STOP_WORDS = new Set(
	(
		'i|me|my|mine|we|us|our|ours|you|your|yours|he|him|his|she|her|hers|they|them|their|it|' +
		'its|this|that|these|those|there|here|the|a|an|some|any|all|each|every|no|none|both|' +
		'either|neither|another|other|such|what|which|who|whom|whose|when|where|why|how|' +
		'whatever|whoever|and|but|or|nor|so|yet|for|if|then|else|because|since|although|though|' +
		'while|whereas|unless|until|after|before|once|as|at|by|in|on|of|off|to|from|with|' +
		'without|about|above|below|under|over|into|onto|upon|through|during|between|among|' +
		'against|across|around|near|per|via|than|like|unlike|despite|within|toward|towards|' +
		'behind|beyond|besides|except|also|too|just|only|even|still|already|again|always|' +
		'never|often|sometimes|usually|maybe|perhaps|probably|definitely|actually|really|' +
		'basically|honestly|anyway|however|therefore|thus|hence|meanwhile|otherwise|instead|' +
		'indeed|finally|first|second|third|next|last|later|earlier|now|today|tonight|tomorrow|' +
		'yesterday|soon|recently|currently|previously|eventually|overall|yes|not|ok|okay|yeah|' +
		'yep|nope|sure|thanks|thank|please|sorry|hello|hi|hey|dear|oh|ah|well|wow|great|good|' +
		'nice|cool|fine|awesome|lol|haha|omg|btw|fyi|asap|imo|tldr|ps|todo|fixme|note|nb|' +
		'is|are|was|were|be|been|being|am|do|does|did|done|have|has|had|can|could|will|would|' +
		"shall|should|may|might|must|need|needs|let|lets|let’s|let's|make|makes|made|get|gets|" +
		'got|go|goes|went|gone|see|saw|seen|use|uses|used|using|add|added|fix|fixed|remove|' +
		'removed|update|updated|create|created|delete|deleted|run|ran|install|installed|set|try|' +
		'tried|ask|asked|tell|told|call|called|send|sent|meet|met|move|moved|keep|kept|want|' +
		'wanted|liked|love|loved|prefer|prefers|preferred|remember|notes|check|checked|start|' +
		'started|stop|stopped|finish|finished|decide|decided|switch|switched|buy|bought|visit|' +
		'visited|talk|talked|spoke|think|thought|know|knew|feel|felt|look|looked|find|found|take|' +
		'took|give|gave|put|say|said|write|wrote|read|build|built|deploy|deployed|test|tested|' +
		'review|reviewed|merge|merged|refactor|implement|implemented|discuss|discussed|plan|' +
		'planned|learn|learned|learnt|watch|watched|play|played|work|worked|live|lived|come|came|' +
		'bring|brought|show|showed|open|opened|close|closed|save|saved|store|stored|follow|avoid|' +
		"don’t|don't|didn’t|didn't|doesn’t|doesn't|can’t|can't|won’t|won't|isn’t|isn't|" +
		"wasn’t|wasn't|i’m|i'm|i’ve|i've|i’d|i'd|i’ll|i'll|it’s|it's|that’s|that's|" +
		"there’s|there's|we’re|we're|we’ve|we've|they’re|they're|you’re|you're|he’s|" +
		"he's|she’s|she's|what’s|what's|how’s|how's|meeting|summary|issue|bug|task|user|" +
		'users|customer|team|everyone|someone|something|anything|nothing|everything|people|' +
		'new|old|big|small|important|remember|reminder|question|answer|idea|ideas|goal|goals|' +
		'step|steps|result|results|update|status|decision|context|preference|pattern|insight|' +
		'habit|style|mr|mrs|ms|dr|happy|congrats|congratulations|welcome|good|bad|sounds|' +
		'absolutely|exactly|totally|agreed|true|false|right|wait|hmm|oops|also|plus|whether|' +
		'one|two|three|four|five|six|seven|eight|nine|ten|several|many|much|more|most|few|' +
		'less|least|own|same|different|every|very|quite|rather|almost|enough|not|off|out|up|' +
		'down|back|away|home|year|years|month|months|week|weeks|day|days|morning|evening|night|' +
		'afternoon|weekend|phd|mba|msc|bsc|q1|q2|q3|q4|h1|h2'
	).split('|'),
);

/** Pronouns, articles, auxiliaries: a quoted phrase made mostly of these is speech, not a term. */
export const FUNCTION_WORDS = new Set(
	(
		'i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their|it|its|this|that|these|' +
		'those|there|here|the|a|an|and|but|or|so|if|then|to|of|in|on|at|for|with|is|are|was|were|' +
		'be|been|am|do|does|did|have|has|had|can|could|will|would|should|may|might|must|not|no|' +
		"just|what|who|how|why|when|i’m|i'm|i’ll|i'll|it’s|it's|don’t|don't|can’t|can't|" +
		'tomorrow|today|yesterday|now|yes|ok|okay|please|thanks'
	).split('|'),
);

/** Days and months: time expressions (see core/time/), not entities. */
export const CALENDAR_WORDS = new Set(
	(
		'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|thu|thur|thurs|' +
		'fri|january|february|march|april|may|june|july|august|september|october|november|' +
		'december|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec|christmas|easter|' +
		'thanksgiving|halloween|spring|summer|autumn|fall|winter|mondays|tuesdays|wednesdays|' +
		'thursdays|fridays|saturdays|sundays|weekday|weekdays|weekends'
	).split('|'),
);

/** Lowercase words allowed inside a proper name ("Bank of America", "Ludwig van Beethoven"). */
export const NAME_CONNECTORS = new Set('of|de|da|do|dos|das|des|di|du|del|della|el|los|las|van|von|der|den|la|le|bin|ibn|al|y'.split('|'));

/** Alias → canonical display form, applied when normalising tool and place names. */
export const ALIASES: Record<string, string> = {
	postgres: 'PostgreSQL',
	psql: 'PostgreSQL',
	js: 'JavaScript',
	ts: 'TypeScript',
	py: 'Python',
	golang: 'Go',
	k8s: 'Kubernetes',
	mongo: 'MongoDB',
	node: 'Node.js',
	nodejs: 'Node.js',
	'node js': 'Node.js',
	nextjs: 'Next.js',
	vuejs: 'Vue',
	'vue.js': 'Vue',
	'react.js': 'React',
	reactjs: 'React',
	'svelte kit': 'SvelteKit',
	'c sharp': 'C#',
	cpp: 'C++',
	vscode: 'VS Code',
	'visual studio code': 'VS Code',
	gh: 'GitHub',
	'gh actions': 'GitHub Actions',
	'google cloud platform': 'Google Cloud',
	'amazon web services': 'AWS',
	'sql server': 'SQL Server',
	osx: 'macOS',
	'mac os': 'macOS',
	'os x': 'macOS',
	sklearn: 'scikit-learn',
	tailwindcss: 'Tailwind CSS',
	nyc: 'New York',
	'new york city': 'New York',
	'big apple': 'New York',
	la: 'Los Angeles',
	sf: 'San Francisco',
	'san fran': 'San Francisco',
	dc: 'Washington, D.C.',
	'washington dc': 'Washington, D.C.',
	'washington d.c.': 'Washington, D.C.',
	'u.s.': 'United States',
	'u.s.a.': 'United States',
	us: 'United States',
	usa: 'United States',
	america: 'United States',
	'united states of america': 'United States',
	uk: 'United Kingdom',
	'u.k.': 'United Kingdom',
	britain: 'United Kingdom',
	'great britain': 'United Kingdom',
	uae: 'United Arab Emirates',
	holland: 'Netherlands',
	'the netherlands': 'Netherlands',
	türkiye: 'Turkey',
	bengaluru: 'Bangalore',
	kiev: 'Kyiv',
	czechia: 'Czech Republic',
	'ho chi minh': 'Ho Chi Minh City',
	saigon: 'Ho Chi Minh City',
	bombay: 'Mumbai',
};

/** Known file extensions: `name.ext` is a file even without a directory. */
export const FILE_EXTENSIONS =
	'ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonl|ndjson|yaml|yml|toml|ini|cfg|conf|env|lock|md|mdx|' +
	'txt|rst|adoc|py|pyi|ipynb|rs|go|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|fs|rb|php|pl|lua|r|' +
	'scala|clj|ex|exs|erl|hs|ml|dart|zig|vue|svelte|astro|html|htm|css|scss|sass|less|sh|bash|' +
	'zsh|fish|ps1|bat|cmd|sql|graphql|gql|proto|csv|tsv|xml|xsd|svg|png|jpg|jpeg|gif|webp|ico|' +
	'bmp|tiff|heic|pdf|doc|docx|xls|xlsx|ppt|pptx|odt|ods|key|pages|numbers|epub|mobi|zip|gz|' +
	'tgz|tar|rar|7z|bz2|xz|wasm|onnx|bin|pt|pth|safetensors|gguf|ckpt|h5|pkl|parquet|arrow|db|' +
	'sqlite|sqlite3|log|out|mp3|mp4|m4a|wav|flac|ogg|mov|avi|mkv|webm|ttf|otf|woff|woff2|dmg|' +
	'exe|msi|deb|rpm|apk|ipa|jar|war|dll|so|dylib|o|a|lib|tf|tfvars|hcl|nix|dockerfile|' +
	'gradle|pom|sln|csproj|xcodeproj|plist|patch|diff|bak|tmp|pem|crt|cer|pub|gpg|ics|vcf';
/** {@link FILE_EXTENSIONS} as a Set. */
export const FILE_EXTENSION_SET = new Set(FILE_EXTENSIONS.split('|'));

/** Well-known file names without an extension. */
export const BARE_FILE_NAMES = new Set(
	(
		'dockerfile|makefile|rakefile|gemfile|procfile|jenkinsfile|vagrantfile|brewfile|readme|' +
		'license|changelog|codeowners|.env|.gitignore|.gitattributes|.npmrc|.nvmrc|' +
		'.editorconfig|.prettierrc|.eslintrc|.bashrc|.zshrc|.profile|.vimrc|.dockerignore'
	).split('|'),
);

/** Top-level domains that make `word.tld` a web address rather than a dotted identifier. */
export const URL_TLDS =
	'com|org|net|io|dev|ai|app|edu|gov|co|me|info|xyz|tech|so|gg|tv|fm|ly|sh|us|uk|de|fr|nl|' +
	'eu|ca|au|jp|cn|in|ru|br|es|it|ch|se|no|fi|dk|pl|cz|at|be|ie|nz|za|kr|tw|sg|hk|io';

/** Directories that make `dir/name` a path rather than "and/or" or "TCP/IP". */
export const PATH_ROOTS = new Set(
	(
		'src|lib|libs|test|tests|spec|docs|doc|bin|app|apps|packages|node_modules|dist|build|' +
		'public|static|assets|scripts|config|etc|usr|var|home|tmp|opt|workers|components|pages|' +
		'routes|api|server|client|internal|cmd|pkg|include|vendor|examples|fixtures|bench|' +
		'relay|data|models|migrations|styles|utils|.github|.vscode'
	).split('|'),
);

/** Capitalised abbreviations that are not names. */
export const CAPS_STOP = new Set([
	// Generic technical acronyms: every other memory mentions them, so as entities they would
	// link unrelated memories.
	'api',
	'apis',
	'url',
	'urls',
	'uri',
	'ci',
	'cd',
	'db',
	'os',
	'cli',
	'sdk',
	'ide',
	'cpu',
	'gpu',
	'ram',
	'http',
	'https',
	'tcp',
	'ip',
	'dns',
	'ssh',
	'ssl',
	'tls',
	'ok',
	'todo',
	'fixme',
	'fyi',
	'asap',
	'tldr',
	'ps',
	'nb',
	'lol',
	'omg',
	'btw',
	'imo',
	'imho',
	'am',
	'pm',
	'eta',
	'aka',
	'etc',
	'vs',
	're',
	'fw',
	'fwd',
	'tbd',
	'wip',
	'faq',
	'diy',
	'rip',
	'phd',
	'ceo',
	'cto',
	'cfo',
	'vp',
	'hr',
	'pr',
	'prs',
	'qa',
	'ui',
	'ux',
	'id',
	'ids',
]);

/** Family words that name a person when capitalised and alone ("Mom said", "visit Grandma"). */
export const FAMILY_NAMES = new Set('mom|mum|dad|mama|papa|grandma|grandpa|granny|nana|nan|grandmother|grandfather|auntie'.split('|'));
