// Etherscan contract endpoints: a static API key passed at runtime start.
export const main = {
    namespace: 'etherscan',
    name: 'Contracts',
    description: 'Verified smart-contract ABIs and source code, and account balances, on Ethereum mainnet from the Etherscan API.',
    version: '4.2.0',
    root: 'https://api.etherscan.io',
    docs: [ 'https://docs.etherscan.io/api-endpoints/contracts' ],
    tags: [ 'ethereum', 'contracts' ],
    termsOfService: 'https://etherscan.io/terms',
    requiredServerParams: [ 'ETHERSCAN_API_KEY' ],
    tools: {
        getContractAbi: {
            method: 'GET',
            path: '/api',
            description: 'Returns the ABI (JSON string) of a verified contract for a contract address.',
            parameters: [
                { position: { key: 'module', value: 'contract', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed module name.' },
                { position: { key: 'action', value: 'getabi', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed action name.' },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [ 'regex(^0x[a-fA-F0-9]{40}$)' ] }, description: 'Contract address (0x-prefixed, 40 hex characters).' },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'API key, injected.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { status: { type: 'string' }, message: { type: 'string' }, result: { type: 'string' } } } },
            tests: [
                { _description: 'USDT token', address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' },
                { _description: 'Uniswap V2 router', address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D' },
                { _description: 'WETH', address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' }
            ]
        },
        getBalance: {
            method: 'GET',
            path: '/api',
            description: 'Returns the ether balance (in wei, as a decimal string) of an address.',
            parameters: [
                { position: { key: 'module', value: 'account', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed module name.' },
                { position: { key: 'action', value: 'balance', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'Fixed action name.' },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [ 'regex(^0x[a-fA-F0-9]{40}$)' ] }, description: 'Account address (0x-prefixed, 40 hex characters).' },
                { position: { key: 'apikey', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] }, description: 'API key, injected.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { status: { type: 'string' }, message: { type: 'string' }, result: { type: 'string' } } } },
            tests: [
                { _description: 'Ethereum Foundation', address: '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe' },
                { _description: 'Beacon deposit contract', address: '0x00000000219ab540356cBB839Cbe05303d7705Fa' },
                { _description: 'Binance hot wallet', address: '0x28C6c06298d514Db089934071355E5743bf21d60' }
            ]
        }
    }
}
